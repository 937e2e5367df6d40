// The callbacks stage against the independent implementation's status callbacks (callbacks.ts).
import { startIndependent } from '../independent/server.ts';
import { independentVars } from '../independent/vars.ts';
import { callbackTest } from './callbacks.ts';

const { values, ...credentials } = independentVars;
callbackTest({
  name: 'the independent implementation',
  start: (callbackUrl, retryMs) => startIndependent({ callbackUrl, retryDelaysMs: [retryMs] }),
  credentials,
  values,
});
