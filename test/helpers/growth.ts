// How work grows with its input, measured without a clock's bound: the time of the input made four
// times longer over the time of the input, each the fastest of a few runs in this process. Linear
// work gives about 4 (a little more where the collector scans a deep structure), quadratic about
// 16, whatever the machine's load: a test asserts the ratio is under 8, never a time.
import { performance } from 'node:perf_hooks';

const fastest = (work: () => void, runs: number) => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
};

/**
 * time(4n) / time(n) for `work` on inputs built beforehand. A busy machine raises a ratio when a pause lands in the
 * larger side, so the smallest of three measurements is the one that holds: quadratic work never gets near 4.
 */
export function growth<T>(make: (n: number) => T, work: (input: T) => void, n: number, runs = 3): number {
  const [small, large] = [make(n), make(4 * n)];
  work(small); // warm the compiler on the code path first
  let least = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt++)
    least = Math.min(least, fastest(() => work(large), runs) / fastest(() => work(small), runs));
  return least;
}
