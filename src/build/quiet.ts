// The third-party banners and warnings this project's commands do not print, in one place. The tools'
// own switches go first (QUIET_ENV); what no switch silences is dropped by its exact known text:
//   - a boxed banner of a tool run as a child process: `node --import tsx src/build/quiet.ts <command> [args...]`
//     runs the command and passes its stdout and stderr on without the known boxes (the npm scripts
//     that run Redocly CLI go through it);
//   - a Node warning a library emits as this process loads it: withoutKnownWarnings(() => require(...)).
// Anything else, an unknown box or warning and every error included, passes through unchanged.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

/** Switches the tools have: no telemetry, and no "new version" or "skills" notice from Redocly CLI (on a terminal). */
export const QUIET_ENV: Record<string, string> = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
};

/** A boxed banner, known by its first line of text; the rest of the box (a version number) may vary. */
export interface KnownBanner {
  tool: string;
  when: string;
  headline: string;
}

export const knownBanners: KnownBanner[] = [
  {
    tool: '@redocly/cli',
    when: 'every command, on Node 20 (no switch turns it off)',
    headline: 'Deprecation warning: Node.js 20 support is ending',
  },
  {
    tool: '@redocly/cli',
    when: 'build-docs, on every Node (no switch turns it off)',
    headline: 'build-docs now renders docs with Redoc 3.',
  },
];

/** A warning Node prints for a library as it loads: known by its code, or else its exact message. */
export interface KnownWarning {
  tool: string;
  code?: string;
  message?: string;
}

export const knownWarnings: KnownWarning[] = [
  {
    tool: 'winston 2, under dredd (every Node)',
    message: "Accessing non-existent property 'padLevels' of module exports inside circular dependency",
  },
  { tool: 'htmlencode, under dredd (util._extend, Node 22 and later)', code: 'DEP0060' },
];

const plain = (line: string) =>
  stripVTControlCharacters(line)
    .replace(/\r?\n$/, '')
    .replace(/\r$/, '');
const boxTop = /^\s*╔═+╗\s*$/;
const boxBottom = /^\s*╚═+╝\s*$/;
const isBlank = (line: string) => plain(line).trim() === '';

/** The box's first line of text, without its frame. */
function headline(box: string[]): string | undefined {
  for (const line of box.slice(1, -1)) {
    const text = plain(line).trim().replace(/^║/, '').replace(/║$/, '').trim();
    if (text) return text;
  }
  return undefined;
}

/**
 * A stream's text without the known banners. A banner is written as an empty line, the box, and an empty line
 * (Redocly's logger): those lines go with it. Text is passed on by whole lines; `end()` gives what is left.
 */
export class BannerFilter {
  private partial = '';
  /** An empty line held back: it goes with a known box that follows it. */
  private blank: string | undefined;
  /** The lines of a box being read. */
  private box: string[] | undefined;
  private dropBlank = false;

  constructor(private readonly banners: KnownBanner[] = knownBanners) {}

  write(chunk: string): string {
    const lines = (this.partial + chunk).split(/(?<=\n)/);
    this.partial = lines.at(-1)?.endsWith('\n') ? '' : (lines.pop() ?? '');
    return lines.map((line) => this.line(line)).join('');
  }

  end(): string {
    const rest = [this.blank ?? '', ...(this.box ?? []), this.partial].join('');
    this.blank = undefined;
    this.box = undefined;
    this.partial = '';
    return rest;
  }

  /**
   * The empty line held back, unless a box follows it: for a caller that writes another stream's text, so the
   * line keeps its place between the two streams.
   */
  release(): string {
    return this.box ? '' : this.takeBlank();
  }

  private takeBlank(): string {
    const blank = this.blank ?? '';
    this.blank = undefined;
    return blank;
  }

  private line(line: string): string {
    if (this.box) {
      this.box.push(line);
      if (boxBottom.test(plain(line))) {
        const box = this.box;
        this.box = undefined;
        const title = headline(box);
        if (this.banners.some((b) => b.headline === title)) {
          this.blank = undefined;
          this.dropBlank = true;
          return '';
        }
        return this.takeBlank() + box.join('');
      }
      // No frame this long: not a box after all.
      if (this.box.length > 40) {
        const box = this.box;
        this.box = undefined;
        return this.takeBlank() + box.join('');
      }
      return '';
    }
    if (this.dropBlank) {
      this.dropBlank = false;
      if (isBlank(line)) return '';
    }
    if (boxTop.test(plain(line))) {
      this.box = [line];
      return '';
    }
    const before = this.takeBlank();
    if (isBlank(line)) {
      this.blank = line;
      return before;
    }
    return before + line;
  }
}

/** The text without the known banners. */
export function withoutBanners(text: string, banners: KnownBanner[] = knownBanners): string {
  const filter = new BannerFilter(banners);
  return filter.write(text) + filter.end();
}

type EmitWarning = (warning: string | Error, ...rest: unknown[]) => void;

/** Whether process.emitWarning's arguments are a known warning (`(message, type?, code?)` or `(message, {code})`). */
export function isKnownWarning(warning: string | Error, ...rest: unknown[]): boolean {
  const message = typeof warning === 'string' ? warning : warning.message;
  const [second, third] = rest;
  const code =
    typeof second === 'object' && second !== null
      ? (second as { code?: unknown }).code
      : typeof third === 'string'
        ? third
        : typeof warning === 'object'
          ? (warning as { code?: unknown }).code
          : undefined;
  return knownWarnings.some((w) => (w.code !== undefined ? w.code === code : w.message === message));
}

/** Runs `load` (a require of a library) without the known warnings it makes Node print; any other passes. */
export function withoutKnownWarnings<T>(load: () => T): T {
  const emit = process.emitWarning as EmitWarning;
  (process as { emitWarning: EmitWarning }).emitWarning = (warning, ...rest) => {
    if (!isKnownWarning(warning, ...rest)) emit.call(process, warning, ...rest);
  };
  try {
    return load();
  } finally {
    (process as { emitWarning: EmitWarning }).emitWarning = emit;
  }
}

/** Runs the command with QUIET_ENV, its output without the known banners; ends as the command ended. */
function runQuietly(command: string, args: string[]): void {
  const env: NodeJS.ProcessEnv = { ...QUIET_ENV, ...process.env };
  // Through a pipe a tool would drop its colours: kept when this process writes to a terminal.
  if ((process.stdout.isTTY || process.stderr.isTTY) && env.FORCE_COLOR === undefined && env.NO_COLOR === undefined)
    env.FORCE_COLOR = '1';
  const child = spawn(command, args, {
    stdio: ['inherit', 'pipe', 'pipe'],
    env,
    shell: process.platform === 'win32',
  });
  const streams = [
    { from: child.stdout, to: process.stdout, filter: new BannerFilter() },
    { from: child.stderr, to: process.stderr, filter: new BannerFilter() },
  ];
  for (const { from, to, filter } of streams) {
    const other = streams.find((s) => s.filter !== filter)!;
    from.setEncoding('utf8');
    from.on('data', (chunk: string) => {
      const text = filter.write(chunk);
      if (text) other.to.write(other.filter.release());
      to.write(text);
    });
    from.on('end', () => to.write(filter.end()));
  }
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  let failed = false;
  child.on('error', (error) => {
    failed = true;
    process.stderr.write(`quiet: cannot run ${command}: ${error.message}\n`);
    process.exitCode = 127;
  });
  child.on('close', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (failed) return;
    // Ended by a signal: this process ends by the same one, as a shell would report it.
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    process.stderr.write('usage: node --import tsx src/build/quiet.ts <command> [args...]\n');
    process.exitCode = 2;
  } else runQuietly(command, args);
}
