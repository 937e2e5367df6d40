// How work grows with its input, measured without a clock's bound: the time of the input made four
// times longer over the time of the input, each the fastest of a few runs in this process. Linear
// work gives about 4 (a little more where the collector scans a deep structure), quadratic about
// 16, whatever the machine's load: a test asserts the ratio is under 8, never a time.
import { performance } from 'node:perf_hooks';

/** How long `work` takes on `input`, in milliseconds. */
function timed<T>(work: (input: T) => void, input: T): number {
  const start = performance.now();
  work(input);
  return performance.now() - start;
}

/**
 * time(4n) / time(n) for `work` on inputs built beforehand. The two sizes take turns, so a busy
 * moment lands on both, and each is the fastest of `runs`; a busy machine can still raise a ratio
 * (a pause lands in the larger side), so it is measured again, up to twenty times, until one is well
 * under quadratic: the smallest is returned. Quadratic work never gets near 4. (Five were too few under the
 * maintainer's round in test:packages, a whole npm test beside other tests: 9.6 for a parse that is 4 when quiet.)
 */
export function growth<T>(make: (n: number) => T, work: (input: T) => void, n: number, runs = 3): number {
  const [small, large] = [make(n), make(4 * n)];
  work(small); // warm the compiler on the code path first
  let least = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 20 && least >= 6; attempt++) {
    let [fastSmall, fastLarge] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (let i = 0; i < runs; i++) {
      fastSmall = Math.min(fastSmall, timed(work, small));
      fastLarge = Math.min(fastLarge, timed(work, large));
    }
    least = Math.min(least, fastLarge / fastSmall);
  }
  return least;
}
