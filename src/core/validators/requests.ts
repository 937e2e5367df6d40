// Precompiled: the request schemas and the button limits (client preflight, sandbox rules).
import { validators } from '../../../generated/validators/requests.js';
import { lookup } from '../validation.ts';

export const { validator } = lookup(validators);
