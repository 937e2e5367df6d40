// The mutation test (mutations.ts) against the sandbox.
import { mutationTest } from './mutations.ts';
import { credentials, listenSandbox } from '../helpers/sandbox.ts';

// The sandbox's runs also go through the checking proxy, recorded and judged again by `traffic`; it passes strict
// unbroken, so the breaks of this contract's decisions run against it too (under strict).
mutationTest(
  { name: 'the sandbox', start: () => listenSandbox(), credentials, values: {} },
  { traffic: true, strict: true },
);
