// The mutation test (mutations.ts) against the sandbox.
import { mutationTest } from './mutations.ts';
import { credentials, startSandbox } from '../helpers/sandbox.ts';

mutationTest({ name: 'the sandbox', start: () => startSandbox(), credentials, values: {} });
