// Do the client generators users run on the bundled document produce whole types? Each generator
// writes into a folder; its output is compiled with TypeScript (strict) and every component schema
// is walked beside the generated type of the same name: each property (own and allOf members')
// must be there, required ones not optional, nothing `any`/`unknown` where the schema constrains
// the value, arrays arrays, closed enums literal unions, open sets (`anyOf [Known, string]`)
// accepting any string. Adapted from a prototype run against orval 8, @hey-api/openapi-ts 0.99
// and openapi-typescript 7.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';

type Schema = Record<string, any>;
export type Doc = Record<string, any>;

/**
 * Where the generators run: the Node binary and the project they are installed in
 * (test/generators/project, apart from the repository's tools: they need Node 22.18+).
 */
export interface Toolchain {
  node: string;
  project: string;
}

function bin(toolchain: Toolchain, pkg: string, name: string): string {
  const require = createRequire(join(toolchain.project, 'package.json'));
  const manifest = require(`${pkg}/package.json`) as { bin: string | Record<string, string> };
  return join(
    dirname(require.resolve(`${pkg}/package.json`)),
    typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name]!,
  );
}

type Argv = (toolchain: Toolchain, spec: string, out: string) => string[];
export const generators = {
  'hey-api': {
    argv: (t, spec, out) => [bin(t, '@hey-api/openapi-ts', 'openapi-ts'), '-i', spec, '-o', out, '--no-log-file'],
    probe: "import type * as G from './types.gen';",
    ref: (n) => `G.${n}`,
  },
  'orval (axios)': {
    argv: (t, spec, out) => [bin(t, 'orval', 'orval'), '-i', spec, '-o', join(out, 'api.ts')],
    probe: "import type * as G from './api';",
    ref: (n) => `G.${n}`,
  },
  'orval (fetch)': {
    argv: (t, spec, out) => [bin(t, 'orval', 'orval'), '-i', spec, '-o', join(out, 'api.ts'), '--client', 'fetch'],
    probe: "import type * as G from './api';",
    ref: (n) => `G.${n}`,
  },
  'openapi-typescript': {
    argv: (t, spec, out) => [bin(t, 'openapi-typescript', 'openapi-typescript'), spec, '-o', join(out, 'schema.ts')],
    probe: "import type { components } from './schema';",
    ref: (n) => `components['schemas'][${JSON.stringify(n)}]`,
  },
} satisfies Record<string, { argv: Argv; probe: string; ref: (name: string) => string }>;
export type GeneratorName = keyof typeof generators;

/** Runs a generator into `out` (inside the toolchain's project, whose node_modules the output imports). */
export function generate(
  toolchain: Toolchain,
  name: GeneratorName,
  spec: string,
  out: string,
): Promise<{ code: number | null; output: string }> {
  mkdirSync(out, { recursive: true });
  return new Promise((resolve) => {
    const child = spawn(toolchain.node, generators[name].argv(toolchain, spec, out), {
      cwd: out,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function derefIn(doc: Doc) {
  return (schema: Schema | undefined): Schema | undefined => {
    let s = schema;
    for (let i = 0; s?.$ref && i < 20; i++)
      s = (s.$ref as string)
        .slice(2)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((o: any, k) => o?.[k], doc);
    return s;
  };
}

/** The JSON types a schema admits (null left out); undefined when it does not constrain the value. */
function kindsIn(doc: Doc) {
  const deref = derefIn(doc);
  const kinds = (schema: Schema | undefined, depth = 0, keepNull = false): Set<string> | undefined => {
    const s = deref(schema);
    if (!s || typeof s !== 'object' || depth > 20) return undefined;
    const out = new Set<string>();
    const add = (t: string) => out.add(t === 'integer' ? 'number' : t);
    if (s.type) ([] as string[]).concat(s.type).forEach(add);
    else if ('const' in s) add(s.const === null ? 'null' : typeof s.const);
    else if (s.enum) for (const v of s.enum as unknown[]) add(v === null ? 'null' : typeof v);
    else if (s.properties) add('object');
    else if (s.items) add('array');
    for (const k of ['anyOf', 'oneOf']) {
      for (const m of s[k] ?? []) {
        const mk = kinds(m, depth + 1, true);
        if (!mk) return undefined;
        mk.forEach(add);
      }
    }
    if (!s.type && s.allOf) for (const m of s.allOf) kinds(m, depth + 1)?.forEach(add);
    if (!keepNull) out.delete('null');
    return out.size ? out : undefined;
  };
  return kinds;
}

/**
 * Component names that a generator also makes (`<OperationId>Result` in orval, `<OperationId>Data` in hey-api...), and
 * anyOf/oneOf members with no type (read as `unknown` by every generator).
 */
export function staticProblems(doc: Doc): string[] {
  const problems: string[] = [];
  const pascal = (x: string) => x.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_a, _b, c: string) => c.toUpperCase());
  const suffixes = [
    'Result',
    'Data',
    'Error',
    'Errors',
    'Response',
    'Responses',
    'Body',
    'Params',
    'Headers',
    'WebhookPayload',
    'WebhookRequest',
  ];
  const operations = [doc.paths ?? {}, doc.webhooks ?? {}]
    .flatMap((group) => Object.values<Schema>(group).flatMap((item) => Object.values<Schema>(item ?? {})))
    .filter((op) => op?.operationId);
  const made = new Set(operations.flatMap((op) => suffixes.map((x) => pascal(op.operationId) + x)));
  for (const r of Object.keys(doc.components?.responses ?? {})) made.add(`${r}Response`);
  for (const n of Object.keys(doc.components?.schemas ?? {}))
    if (made.has(pascal(n)))
      problems.push(
        `component ${n} has a name a generator makes for an operation: do not start a component name with an operationId`,
      );
  const kinds = kindsIn(doc);
  const visit = (node: unknown, path: string): void => {
    if (!node || typeof node !== 'object') return;
    if (!Array.isArray(node)) {
      for (const k of ['anyOf', 'oneOf']) {
        ((node as Schema)[k] ?? []).forEach((m: Schema, i: number) => {
          if (!kinds(m, 0, true)) problems.push(`${path}/${k}/${i} has no type: generators read it as unknown`);
        });
      }
    }
    for (const [k, v] of Object.entries(node))
      if (!k.startsWith('x-') && k !== 'examples' && k !== 'example') visit(v, `${path}/${k}`);
  };
  visit(doc.components?.schemas, '#/components/schemas');
  visit(doc.paths, '#/paths');
  return problems;
}

/** Compiles a generator's output in `dir` and walks every component schema beside its type. */
export function typeProblems(name: GeneratorName, dir: string, doc: Doc): string[] {
  const problems: string[] = [];
  const fail = (message: string) => problems.push(message);
  const deref = derefIn(doc);
  const kinds = kindsIn(doc);
  const names = Object.keys(doc.components?.schemas ?? {});
  const probe = join(dir, 'probe.ts');
  writeFileSync(
    probe,
    `${generators[name].probe}\n${names.map((n) => `export type P__${n.replace(/\W/g, '_')} = ${generators[name].ref(n)};`).join('\n')}\n`,
  );
  const files = (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.startsWith('node_modules') && f !== 'probe.ts')
    .map((f) => join(dir, f));
  const program = ts.createProgram([...files, probe], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    skipLibCheck: true,
    types: [],
  });
  for (const d of ts.getPreEmitDiagnostics(program))
    fail(
      `tsc: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}${d.file ? ` (${d.file.fileName.slice(dir.length + 1)})` : ''}`,
    );
  const checker = program.getTypeChecker();
  const aliases = new Map<string, ts.Type>();
  program.getSourceFile(probe)!.forEachChild((n) => {
    if (ts.isTypeAliasDeclaration(n)) aliases.set(n.name.text.slice(3), checker.getTypeFromTypeNode(n.type));
  });
  const str = checker.getStringType();
  const num = checker.getNumberType();
  const bool = checker.getBooleanType();
  const bad = (t: ts.Type) => (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0;
  const show = (t: ts.Type) => checker.typeToString(t, undefined, ts.TypeFormatFlags.NoTruncation).slice(0, 120);
  const literals = (schema: Schema | undefined, depth = 0): { values: Set<string>; open: boolean } => {
    const s = deref(schema);
    const values = new Set<string>();
    let open = false;
    if (!s || depth > 20) return { values, open: true };
    const own = s.enum ?? ('const' in s ? [s.const] : undefined);
    for (const v of own ?? []) if (typeof v === 'string') values.add(v);
    const alternatives = s.anyOf ?? s.oneOf;
    if (alternatives) {
      for (const m of alternatives) {
        const r = literals(m, depth + 1);
        for (const v of r.values) values.add(v);
        open ||= r.open;
      }
    } else if (!own) open = true;
    return { values, open };
  };
  const properties = (
    schema: Schema | undefined,
    props = new Map<string, Schema[]>(),
    required = new Set<string>(),
  ) => {
    const s = deref(schema);
    if (!s || typeof s !== 'object') return { props, required };
    for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) props.set(k, [...(props.get(k) ?? []), v]);
    for (const r of s.required ?? []) required.add(r);
    for (const m of s.allOf ?? []) properties(m, props, required);
    return { props, required };
  };
  const visited = new Map<Schema, Set<ts.Type>>();
  const walk = (schema: Schema, type: ts.Type, path: string, narrowed = false): void => {
    const s = deref(schema);
    if (!s || typeof s !== 'object') return;
    const seen = visited.get(s) ?? visited.set(s, new Set()).get(s)!;
    if (seen.has(type)) return;
    seen.add(type);
    const k = kinds(s);
    if (!k) return; // the schema does not constrain the value: unknown is honest
    const t = bad(type) ? type : checker.getNonNullableType(type);
    if (bad(t)) return void fail(`${path} is ${show(t)} (the schema says ${[...k].join('|')})`);
    if (k.size > 1) return;
    const only = [...k][0];
    if (only === 'string') {
      if (!checker.isTypeAssignableTo(t, str)) return void fail(`${path} should be a string type, is ${show(t)}`);
      const { values, open } = literals(s);
      for (const v of values)
        if (!checker.isTypeAssignableTo(checker.getStringLiteralType(v), t))
          fail(`${path} does not accept '${v}' (${show(t)})`);
      if (open && !narrowed && !checker.isTypeAssignableTo(str, t))
        fail(`${path} is an open set but does not accept any string (${show(t)})`);
      if (!open && values.size && checker.isTypeAssignableTo(str, t))
        fail(`${path} is a closed enum widened to string`);
    } else if (only === 'number') {
      if (!checker.isTypeAssignableTo(t, num)) fail(`${path} should be a number type, is ${show(t)}`);
    } else if (only === 'boolean') {
      if (!checker.isTypeAssignableTo(t, bool)) fail(`${path} should be boolean, is ${show(t)}`);
    } else if (only === 'array') {
      const element = checker.getIndexTypeOfType(t, ts.IndexKind.Number);
      if ((!checker.isArrayType(t) && !checker.isTupleType(t)) || !element)
        return void fail(`${path} should be an array, is ${show(t)}`);
      const items = s.items ?? (s.allOf ?? []).map(deref).find((m: Schema | undefined) => m?.items)?.items;
      if (items) walk(items, element, `${path}[]`);
    } else if (only === 'object') {
      const { props, required } = properties(s);
      for (const [prop, list] of props) {
        const symbol = checker.getPropertyOfType(t, prop);
        if (!symbol) {
          fail(`${path} lacks property '${prop}' (${show(t)})`);
          continue;
        }
        if (required.has(prop) && symbol.flags & ts.SymbolFlags.Optional)
          fail(`${path}.${prop} is required but optional in the type`);
        const propertyType = checker.getTypeOfSymbol(symbol);
        for (const ps of list) walk(ps, propertyType, `${path}.${prop}`, list.length > 1); // allOf siblings may narrow each other
      }
    }
  };
  for (const n of names) {
    const t = aliases.get(n.replace(/\W/g, '_'));
    if (!t) fail(`no type for ${n}`);
    else walk({ $ref: `#/components/schemas/${n}` }, t, n);
  }
  return problems;
}
