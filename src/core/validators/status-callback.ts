// Precompiled: the webhook schema only (for @messaging-contract/client/webhooks).
import { validators } from '../../../generated/validators/status-callback.js';
import { lookup } from '../validation.ts';

export const { validator } = lookup(validators);
