// Dredd in this process, as a library: loaded when first needed without changing the process it
// loads into, quiet while it runs (its reporters and its dependencies' warnings), the document
// compiled when it is built, and the suite's hooks handed to it (dredd-hooks.cjs passes them on).
// What to send and how to judge it is the stage's (stages/dredd.ts, dredd/plan.ts, dredd/judge.ts).
import type { EventEmitter } from 'node:events';
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { assetPath } from '../../core/assets.ts';
import { openapi } from '../../core/document.ts';

/** Dredd's hooks object: handlers run in series, each calling `done` when it is through. */
export interface DreddHooks {
  beforeEach(hook: (transaction: Transaction, done: () => void) => void): void;
  beforeEachValidation(hook: (transaction: Transaction, done: () => void) => void): void;
  afterEach(hook: (transaction: Transaction, done: () => void) => void): void;
}

export interface Transaction {
  id: string;
  name: string;
  skip: boolean;
  fail?: string;
  fullPath: string;
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: string; headers?: unknown; body?: unknown; bodySchema?: unknown };
  real?: { statusCode: number; headers: Record<string, string>; body?: string };
}

interface ApiDescription {
  location: string;
  mediaType: string;
  annotations: object[];
  transactions: object[];
}
type Prepared = (error: Error | null, descriptions?: ApiDescription[]) => void;
type DreddClass = new (
  config: object,
) => {
  run(callback: (error: Error | null, stats: { failures: number; errors: number }) => void): void;
  prepareAPIdescriptions(callback: Prepared): void;
};

/**
 * Dredd compiles the document into transactions, half a second of CPU: it is done when the document
 * is built (compileDocument, `npm run build:generated`, checked for drift by npm test), and a run
 * reads the result. Each run gets its own copy of the transactions, which the hooks rewrite. The
 * parsed document is left out: past compiling, Dredd only copies it (for its hooks' view of the
 * configuration), at a cost larger than the run's.
 */
const transactionsPath = assetPath(import.meta.url, {
  bundled: './dredd-transactions.json',
  source: '../../../generated/dredd-transactions.json',
});
let compiled: ApiDescription[] | undefined;
const copyOf = (descriptions: ApiDescription[]): ApiDescription[] =>
  descriptions.map(({ location, mediaType, annotations, transactions }) => ({
    location,
    mediaType,
    annotations,
    transactions: structuredClone(transactions),
  }));
function usePrecompiled(runner: InstanceType<DreddClass>): void {
  runner.prepareAPIdescriptions = (callback) => {
    compiled ??= JSON.parse(readFileSync(transactionsPath, 'utf8')) as ApiDescription[];
    const copy = copyOf(compiled);
    process.nextTick(() => callback(null, copy));
  };
}

const hooksPath = assetPath(import.meta.url, { bundled: './dredd-hooks.cjs', source: '../dredd-hooks.cjs' });

interface DreddModules {
  Dredd: DreddClass;
  /**
   * Dredd's reporters print each transaction to stdout, which would mix with the suite's own output (a JSON report,
   * say).
   */
  reporterOutput: { silent: boolean };
}
let loaded: DreddModules | undefined;

/**
 * Dredd, loaded when a run first needs it. Loading it must not change the process it loads into:
 * its API Blueprint parser (drafter.js, compiled by Emscripten) adds an `unhandledRejection`
 * handler that exits with 1, which would end a user's program over a rejection it handles itself.
 * Process listeners added while loading are taken off again.
 */
function dreddModules(): DreddModules {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const before = new Map(process.eventNames().map((event) => [event, process.listeners(event as NodeJS.Signals)]));
  try {
    loaded = {
      Dredd: require('dredd') as DreddClass,
      reporterOutput: (
        require('dredd/build/reporters/reporterOutputLogger') as {
          default: { transports: { console: { silent: boolean } } };
        }
      ).default.transports.console,
    };
  } finally {
    for (const event of process.eventNames()) {
      const kept = before.get(event) ?? [];
      for (const listener of process.listeners(event as NodeJS.Signals))
        if (!kept.includes(listener)) process.removeListener(event, listener as () => void);
    }
  }
  loaded.reporterOutput.silent = runsUnderWay > 0;
  return loaded;
}

/**
 * Warnings that Dredd's dependencies make Node print, which say nothing to our users: winston 2
 * reads a module inside a circular require, and request calls util._extend (DEP0060, printed
 * from Node 22 on).
 */
function isDreddNoise(warning: string | Error, rest: unknown[]): boolean {
  const options = rest[0] !== null && typeof rest[0] === 'object' ? (rest[0] as { code?: unknown }) : undefined;
  const code = options ? options.code : (rest[1] ?? (warning as { code?: unknown }).code);
  return code === 'DEP0060' || String(warning).includes('inside circular dependency');
}

let runsUnderWay = 0;
let emitWarning: typeof process.emitWarning | undefined;

/**
 * While any Dredd run is under way (loading Dredd included), its reporters and its dependencies' warnings are quiet.
 */
function quiet(on: boolean): void {
  runsUnderWay += on ? 1 : -1;
  if (on && runsUnderWay === 1) {
    emitWarning = process.emitWarning;
    const emit = emitWarning;
    process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
      if (!isDreddNoise(warning, rest)) (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
    }) as typeof process.emitWarning;
  }
  if (!on && runsUnderWay === 0 && emitWarning) {
    process.emitWarning = emitWarning;
    emitWarning = undefined;
  }
  if (loaded) loaded.reporterOutput.silent = runsUnderWay > 0;
}

export interface DreddStats {
  failures: number;
  errors: number;
}

/** Dredd's configuration for a run against `endpoint`: the document this package carries, handed over in memory. */
const configuration = (endpoint: string) => ({
  endpoint,
  apiDescriptions: [{ location: 'openapi.json', content: JSON.stringify(openapi) }],
  language: 'nodejs',
  loglevel: 'silent',
  reporter: [],
});

/** Dredd's own compilation of the bundled document, as a run reads it (for the build: generated/). */
export function compileDocument(): Promise<ApiDescription[]> {
  quiet(true);
  return new Promise<ApiDescription[]>((resolve, reject) => {
    new (dreddModules().Dredd)(configuration('http://127.0.0.1')).prepareAPIdescriptions((error, descriptions) =>
      error || !descriptions ? reject(error ?? new Error('Dredd compiled nothing')) : resolve(copyOf(descriptions)),
    );
  }).finally(() => quiet(false));
}

/**
 * A Dredd run over the bundled document against `endpoint`, its requests through `agent`, its
 * errors on `emitter`, and `attach` given its hooks. Quiet from now until `run`'s callback.
 */
export function createDredd(options: {
  endpoint: string;
  agent: HttpAgent | HttpsAgent;
  emitter: EventEmitter;
  attach(hooks: DreddHooks): void;
}): {
  run(callback: (error: Error | null, stats: DreddStats) => void): void;
} {
  quiet(true);
  let runner: InstanceType<DreddClass>;
  try {
    runner = new (dreddModules().Dredd)({
      ...configuration(options.endpoint),
      hookfiles: [hooksPath],
      emitter: options.emitter,
      // gzip: Dredd's client (request) decodes gzip and deflate answers, which the suite's requests accept.
      http: { agent: options.agent, gzip: true },
      custom: { cwd: process.cwd(), messagingConformance: { attach: options.attach } },
    });
  } catch (error) {
    quiet(false);
    throw error;
  }
  usePrecompiled(runner);
  return {
    run(callback) {
      let ran = false;
      runner.run((error, stats) => {
        if (ran) return; // once only: Dredd's own comments warn that an error in a hook can run its flow twice
        ran = true;
        quiet(false);
        callback(error, stats);
      });
    },
  };
}
