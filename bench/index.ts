// npm run bench: every benchmark of the project, each ratio measured side by side in one run, each
// timing as min / median / max over BENCH_RUNS runs (default 5). The run is saved as
// bench/results/latest.json (the one before becomes previous.json) and each median is compared
// with the saved run's. `npm run bench -- client sandbox` runs some sections and saves nothing.
import { clientBenchmark } from './client.ts';
import { conformanceBenchmark } from './conformance.ts';
import { hostileBenchmark } from './hostile.ts';
import { packagesBenchmark } from './packages.ts';
import { sandboxBenchmark } from './sandbox.ts';
import { trafficBenchmark } from './traffic.ts';
import { line, loadPrevious, runs, save, seconds, toSaved, type Figure, type Results } from './stats.ts';

const sections: Record<string, () => Promise<Figure[]>> = {
  client: clientBenchmark,
  packages: packagesBenchmark,
  sandbox: sandboxBenchmark,
  conformance: conformanceBenchmark,
  'hostile input': hostileBenchmark,
  traffic: trafficBenchmark,
};

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !Object.hasOwn(sections, name));
if (unknown.length)
  throw new Error(`no bench section ${unknown.join(', ')}; the sections: ${Object.keys(sections).join(', ')}`);

const previous = loadPrevious();
console.log(
  `${runs} runs of each timing, ${seconds} s per measured stretch (BENCH_RUNS, BENCH_SECONDS); Node ${process.version}`,
);
if (previous) console.log(`compared with the saved run of ${previous.date} (bench/results/latest.json)`);
const start = performance.now();
const results: Results['sections'] = {};
for (const [name, run] of Object.entries(sections)) {
  if (chosen.length && !chosen.includes(name)) continue;
  console.log(`\n## ${name}`);
  const sectionStart = performance.now();
  results[name] = {};
  for (const figure of await run()) {
    console.log(line(figure, previous?.sections[name]?.[figure.label]));
    results[name][figure.label] = toSaved(figure);
  }
  console.log(`(section: ${((performance.now() - sectionStart) / 1000).toFixed(0)} s)`);
}
console.log(`\nbench: ${((performance.now() - start) / 1000).toFixed(0)} s`);
console.log(chosen.length ? 'some sections only: nothing saved' : `saved as ${save(results)}`);
