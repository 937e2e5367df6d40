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

// A service that reports the status on the way too (SENT, then the result): a refused SENT must itself come again; the
// result after it is no retry.
callbackTest(
  {
    name: 'the independent implementation reporting SENT before each result',
    start: (callbackUrl, retryMs) =>
      startIndependent({ callbackUrl, retryDelaysMs: [retryMs], choices: { eachStatus: true } }),
    credentials,
    values,
  },
  ['no retry after the receiver answers 500'],
);
