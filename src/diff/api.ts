// The packages' own API, gated as the document is. A release records each package's declaration
// files (releases/api/<version>/<package>/); the next release compares the packages' exports with
// them through the TypeScript compiler, as code written against the last release meets them:
// - an export (a type or a value) or a subpath removed breaks whoever imported it;
// - each function, class and constant must fit where its old type is written: `typeof new` must
//   be assignable to `typeof old`. The compiler then judges each type by where it flows: what a
//   function takes contravariantly (a parameter narrowed, a field newly required, breaks callers),
//   what it gives covariantly (a result widened breaks: 1.0.2's `number | bigint` where a result
//   said `number` stops `const id: number = result.resolved_threads[0]`). A type exported for
//   users' annotations is judged through the values that take or give it, so a code added to the
//   known error codes, taken by `error.is` and given in an open `ErrorCode`, breaks nobody.
// Not seen: a required property added to a result type, which breaks only code that builds such a
// result itself (a mock), and a class method's parameters, which TypeScript compares both ways.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** A package of the workspace: its name, its folder, and its typed entries (export subpath -> dist file). */
export interface PackageApi {
  name: string;
  /** The folder under releases/api/<version>/: the name without its scope. */
  short: string;
  dist: string;
  entries: Record<string, string>;
}

/** An incompatibility of a package's types with the last release's. */
export interface ApiBreak {
  package: string;
  /** The export: "@messaging-contract/client: createMessagingClient", or a subpath. */
  what: string;
  /** Who it breaks and how, with the compiler's first line. */
  sentence: string;
}

/** The workspace packages and the declaration file of each typed export. */
export function packageApis(repo: string): PackageApi[] {
  const root = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { workspaces?: string[] };
  return (root.workspaces ?? []).map((folder) => {
    const manifest = JSON.parse(readFileSync(join(repo, folder, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, unknown>;
    };
    const entries: Record<string, string> = {};
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const types = (target as { types?: unknown } | null)?.types;
      if (typeof types === 'string') entries[subpath] = types.replace(/^\.\/dist\//, '');
    }
    return {
      name: manifest.name,
      short: manifest.name.replace(/^@[^/]+\//, ''),
      dist: join(repo, folder, 'dist'),
      entries,
    };
  });
}

export const apiDir = (repo: string, version: string) => join(repo, 'releases', 'api', version);

/** Copies each package's built declaration files under releases/api/<version>/. */
export function recordApi(repo: string, version: string): void {
  for (const pkg of packageApis(repo)) {
    const to = join(apiDir(repo, version), pkg.short);
    rmSync(to, { recursive: true, force: true });
    mkdirSync(to, { recursive: true });
    for (const file of readdirSync(pkg.dist))
      if (file.endsWith('.d.ts')) copyFileSync(join(pkg.dist, file), join(to, file));
    // The subpaths it exported: one the next release drops is a break, not a file that is no longer compared.
    writeFileSync(join(to, 'entries.json'), `${JSON.stringify(pkg.entries, null, 2)}\n`);
  }
}

const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: [],
};

/**
 * The compiler's host, with TypeScript's own lib files parsed once per process: they never change, and parsing them
 * (the DOM's declarations among them) was most of each comparison's time.
 */
const libDir = dirname(ts.getDefaultLibFilePath(compilerOptions));
const libFiles = new Map<string, ts.SourceFile>();
function compilerHost(): ts.CompilerHost {
  const host = ts.createCompilerHost(compilerOptions);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!fileName.startsWith(`${libDir}/`)) return readSource(fileName, languageVersion, onError, shouldCreate);
    let file = libFiles.get(fileName);
    if (!file) {
      file = readSource(fileName, languageVersion, onError, shouldCreate);
      if (file) libFiles.set(fileName, file);
    }
    return file;
  };
  return host;
}

interface Probe {
  line: number;
  package: string;
  what: string;
}

const recordedEntries = (dir: string, short: string): Record<string, string> | undefined => {
  const listed = join(dir, short, 'entries.json');
  return existsSync(listed) ? (JSON.parse(readFileSync(listed, 'utf8')) as Record<string, string>) : undefined;
};

/**
 * The breaks of the packages' types against the API recorded for `base`: the types recorded for `version`, or else the
 * packages' built ones (their dist/). A package or an entry the base did not record is new: nothing to break.
 * `undefined` when either side recorded no API at all.
 */
export function compareApi(repo: string, base: string, version?: string): ApiBreak[] | undefined {
  const recorded = apiDir(repo, base);
  if (!existsSync(recorded) || (version !== undefined && !existsSync(apiDir(repo, version)))) return undefined;
  const breaks: ApiBreak[] = [];
  const pairs = packageApis(repo).flatMap((pkg) => {
    const entries = recordedEntries(recorded, pkg.short);
    if (!entries) return []; // a package the base did not have
    const side = version === undefined ? pkg.dist : join(apiDir(repo, version), pkg.short);
    const current = version === undefined ? pkg.entries : (recordedEntries(apiDir(repo, version), pkg.short) ?? {});
    return Object.entries(entries).flatMap(([subpath, file]) => {
      const old = join(recorded, pkg.short, file);
      const name = subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`;
      const kept = current[subpath];
      if (kept === undefined) {
        breaks.push({ package: pkg.name, what: name, sentence: 'no longer exported: every import of it breaks' });
        return [];
      }
      const now = join(side, kept);
      if (!existsSync(now)) throw new Error(`${relative(repo, now)}: missing (npm run build:packages)`);
      return [{ pkg, name, old, now }];
    });
  });
  if (pairs.length === 0) return breaks;
  // The exports of each side, read by one program.
  const host = compilerHost();
  const first = ts.createProgram(
    pairs.flatMap((p) => [p.old, p.now]),
    compilerOptions,
    host,
  );
  const checker = first.getTypeChecker();
  const exportsOf = (file: string) => {
    const source = first.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    return new Map((module ? checker.getExportsOfModule(module) : []).map((s) => [s.name, s]));
  };
  const probes: Probe[] = [];
  const lines: string[] = [];
  const spec = (file: string) => JSON.stringify(file.replace(/\.d\.ts$/, '.js'));
  for (const [i, { pkg, name: entry, old, now }] of pairs.entries()) {
    const after = exportsOf(now);
    lines.push(`import type * as O${i} from ${spec(old)};`, `import type * as N${i} from ${spec(now)};`);
    for (const [name, symbol] of exportsOf(old)) {
      if (!after.has(name)) {
        breaks.push({ package: pkg.name, what: `${entry}: ${name}`, sentence: `removed: every import of it breaks` });
        continue;
      }
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (!(target.flags & ts.SymbolFlags.Value)) continue; // a type: what flows through it is judged at the values
      probes.push({ line: lines.length, package: pkg.name, what: `${entry}: ${name}` });
      const id = `${i}_${probes.length}`;
      lines.push(`declare const n${id}: typeof N${i}.${name}; export const o${id}: typeof O${i}.${name} = n${id};`);
    }
  }
  if (probes.length === 0) return breaks;
  const dir = mkdtempSync(join(tmpdir(), 'mc-api-'));
  try {
    const check = join(dir, 'check.ts');
    writeFileSync(check, `${lines.join('\n')}\n`);
    const program = ts.createProgram([check], compilerOptions, host, first);
    const source = program.getSourceFile(check)!;
    const found = new Map<number, string>();
    for (const d of ts.getPreEmitDiagnostics(program, source)) {
      if (d.file !== source || d.start === undefined) continue;
      const { line } = source.getLineAndCharacterOfPosition(d.start);
      if (!found.has(line))
        found.set(line, ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n').slice(-1)[0]!.trim());
    }
    const unknown = [...found.keys()].filter((line) => !probes.some((p) => p.line === line));
    if (unknown.length) throw new Error(`the API check could not read the declarations: ${found.get(unknown[0]!)}`);
    for (const p of probes) {
      const message = found.get(p.line);
      if (message)
        breaks.push({
          package: p.package,
          what: p.what,
          sentence: `no longer fits where code written for the last release holds it (${message})`,
        });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return breaks;
}
