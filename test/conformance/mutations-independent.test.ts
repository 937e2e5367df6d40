// The mutation test (mutations.ts) against the independent implementation: the same breaks, each
// caught, on a service that shares no code with the sandbox and chooses differently wherever the
// description leaves room.
import { mutationTest } from './mutations.ts';
import { startIndependent } from '../independent/server.ts';
import { independentVars } from '../independent/vars.ts';

const { values, ...credentials } = independentVars;
mutationTest({ name: 'the independent implementation', start: () => startIndependent(), credentials, values });
