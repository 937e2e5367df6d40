// Starts the independent implementation for manual runs:
//   npx tsx test/independent/cli.ts --port 4100 [--write-vars /tmp/ind-vars.json] [--variant "every other answer at once"]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startIndependent } from './server.ts';
import { variants } from './variants.ts';
import { independentVars } from './vars.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4100' },
    'write-vars': { type: 'string' },
    variant: { type: 'string' },
  },
});
const variant = values.variant === undefined ? undefined : variants.find((v) => v.name === values.variant);
if (values.variant !== undefined && !variant) {
  console.error(`--variant must be one of:\n${variants.map((v) => `  ${v.name}`).join('\n')}`);
  process.exit(2);
}
if (values['write-vars']) writeFileSync(values['write-vars'], `${JSON.stringify(independentVars, null, 2)}\n`);
const server = await startIndependent({ port: Number(values.port), choices: variant?.choices ?? {} });
console.log(`independent implementation${variant ? ` (${variant.name})` : ''} on ${server.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void server.close().then(() => process.exit(0)));
