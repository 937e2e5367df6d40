// How every benchmark figure is reported: a timing as min / median / max over the runs, with its
// goal beside it and the change of its median against the last saved run; a size or a count as
// one value. The saved run is bench/results/latest.json (the one before it, previous.json).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Runs of each timing (BENCH_RUNS, default 5) and seconds of each measured stretch (BENCH_SECONDS, default 3). */
export const runs = Math.max(1, Math.round(Number(process.env.BENCH_RUNS ?? 5)));
export const seconds = Math.max(0.1, Number(process.env.BENCH_SECONDS ?? 3));

export type Goal = { atMost: number } | { atLeast: number };

export interface Figure {
  label: string;
  /** One value per run, or a single value (a size, a count, a yes/no). */
  values: number[] | number | string;
  /** Printed after the numbers: 'µs', 'ms', 's', 'kB', 'MiB'; none for a ratio. */
  unit?: string;
  /** Decimal places (default 2). */
  digits?: number;
  goal?: Goal;
}

interface Saved {
  unit?: string;
  goal?: Goal;
  min?: number;
  median?: number;
  max?: number;
  values: number[] | number | string;
}

export interface Results {
  date: string;
  node: string;
  cpus: number;
  runs: number;
  seconds: number;
  sections: Record<string, Record<string, Saved>>;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const summary = (values: number[]) => ({ min: Math.min(...values), median: median(values), max: Math.max(...values) });

/** `goal <= 1.40: median meets it` (`what` is "median" for a timing, "" for a single value). */
function goalText(goal: Goal, value: number, digits: number, what: string): string {
  const met = 'atMost' in goal ? value <= goal.atMost : value >= goal.atLeast;
  const text = 'atMost' in goal ? `<= ${goal.atMost.toFixed(digits)}` : `>= ${goal.atLeast.toFixed(digits)}`;
  return `goal ${text}: ${what ? `${what} ` : ''}${met ? 'meets it' : 'MISSES it'}`;
}

/**
 * One printed line: `label: min 1.31 median 1.35 max 1.41 (goal <= 1.40: median meets it; previous median 1.38,
 * -2.2%)`.
 */
export function line(figure: Figure, previous: Saved | undefined): string {
  const digits = figure.digits ?? 2;
  const unit = figure.unit ? ` ${figure.unit}` : '';
  const notes: string[] = [];
  let text: string;
  if (Array.isArray(figure.values)) {
    const s = summary(figure.values);
    text = `min ${s.min.toFixed(digits)}  median ${s.median.toFixed(digits)}  max ${s.max.toFixed(digits)}${unit}`;
    if (figure.goal) notes.push(goalText(figure.goal, s.median, digits, 'median'));
    if (previous?.median !== undefined && previous.median !== 0) {
      notes.push(
        `previous median ${previous.median.toFixed(digits)}, ${s.median >= previous.median ? '+' : ''}${((100 * (s.median - previous.median)) / previous.median).toFixed(1)}%`,
      );
    }
  } else {
    text = `${typeof figure.values === 'number' ? figure.values.toFixed(digits) : figure.values}${unit}`;
    if (figure.goal && typeof figure.values === 'number') notes.push(goalText(figure.goal, figure.values, digits, ''));
    if (previous !== undefined && !Array.isArray(previous.values) && previous.values !== figure.values)
      notes.push(`previous ${previous.values}`);
  }
  return `${`${figure.label}:`.padEnd(64)} ${text}${notes.length ? `  (${notes.join('; ')})` : ''}`;
}

const dir = new URL('results/', import.meta.url);
const latest = new URL('latest.json', dir);

/** The saved run, if any: the figures of this run are compared with it. */
export function loadPrevious(): Results | undefined {
  return existsSync(latest) ? (JSON.parse(readFileSync(latest, 'utf8')) as Results) : undefined;
}

const rounded = (v: number) => +v.toPrecision(6);

export function toSaved(figure: Figure): Saved {
  const base = { unit: figure.unit, goal: figure.goal };
  if (!Array.isArray(figure.values))
    return { ...base, values: typeof figure.values === 'number' ? rounded(figure.values) : figure.values };
  const s = summary(figure.values);
  return {
    ...base,
    min: rounded(s.min),
    median: rounded(s.median),
    max: rounded(s.max),
    values: figure.values.map(rounded),
  };
}

/** Writes this run as latest.json, after moving the one before to previous.json. */
export function save(sections: Results['sections']): string {
  mkdirSync(dir, { recursive: true });
  if (existsSync(latest)) renameSync(latest, new URL('previous.json', dir));
  const results: Results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    runs,
    seconds,
    sections,
  };
  writeFileSync(latest, `${JSON.stringify(results, null, 2)}\n`);
  return 'bench/results/latest.json';
}
