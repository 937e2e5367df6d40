// npm run bench: every benchmark of the project, each measured side by side in one run.
import { clientBenchmark } from './client.ts';
import { conformanceBenchmark } from './conformance.ts';
import { hostileBenchmark } from './hostile.ts';
import { packagesBenchmark } from './packages.ts';
import { sandboxBenchmark } from './sandbox.ts';

const sections: Array<[string, () => Promise<Record<string, string | number>>]> = [
  ['client', clientBenchmark],
  ['packages', packagesBenchmark],
  ['sandbox', sandboxBenchmark],
  ['conformance', conformanceBenchmark],
  ['hostile input', hostileBenchmark],
];

for (const [name, run] of sections) {
  console.log(`\n## ${name}`);
  const figures = await run();
  for (const [what, value] of Object.entries(figures)) console.log(`${what.padEnd(60)} ${value}`);
}
