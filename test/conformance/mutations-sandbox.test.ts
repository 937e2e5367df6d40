// The mutation test (mutations.ts) against the sandbox.
import { mutationTest } from './mutations.ts';
import { credentials, listenSandbox } from '../helpers/sandbox.ts';

mutationTest({ name: 'the sandbox', start: () => listenSandbox(), credentials, values: {} });
