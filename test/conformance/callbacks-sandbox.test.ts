// The callbacks stage against the sandbox's simulated delivery (callbacks.ts).
import { startSandbox } from '../../src/sandbox/index.ts';
import { credentials } from '../helpers/sandbox.ts';
import { callbackTest } from './callbacks.ts';

callbackTest({
  name: 'the sandbox',
  start: (callbackUrl, retryMs) => startSandbox({ callbackUrl, callbackRetryDelaysMs: [retryMs] }),
  credentials,
  values: {},
});
