// Starts the independent implementation for manual runs:
//   npx tsx test/independent/cli.ts --port 4100 [--write-vars /tmp/ind-vars.json]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startIndependent } from './server.ts';
import { independentVars } from './vars.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '4100' }, 'write-vars': { type: 'string' } },
});
if (values['write-vars']) writeFileSync(values['write-vars'], `${JSON.stringify(independentVars, null, 2)}\n`);
const server = await startIndependent({ port: Number(values.port) });
console.log(`independent implementation on ${server.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void server.close().then(() => process.exit(0)));
