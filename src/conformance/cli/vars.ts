// messaging-conformance vars --init: a starter vars file (--vars) written from the document: every example value a
// deployment maps to its own, each mapped to itself under a comment saying where the examples use it, and the
// credentials as placeholders the suite reads from the environment. `loadVars` reads it as it is.
import { writeFileSync } from 'node:fs';
import { parse, UsageError } from '../../core/cli.ts';
import { toJson } from '../../core/json-int64.ts';
import { deploymentValues } from '../ground/deployment-values.ts';
import { clip } from '../ground/model.ts';
import * as cli from './shared.ts';

const defaultVarsFile = 'conformance-vars.json';

export const varsUsage = `usage: messaging-conformance vars --init [--output <file>] [--force]

  Writes a starter vars file for --vars: every example value of the document a deployment maps to
  its own (thread and cascade ids, stage UUIDs, an existing subscriber's id, parameter and tag
  names, and the fixtures info.x-fixtures names), each mapped to itself (the sandbox's values) under
  a "// <value>" comment that says where the examples use it, and the credentials as placeholders
  ("\${MESSAGING_API_KEY}") read from the environment. Edit each value to your deployment's own.

  --output              the file to write (default ${defaultVarsFile})
  --force               overwrite the file if it exists (refused otherwise)
`;

const j = (value: unknown) => toJson(value);

/** The starter vars file's text: comments as `//` keys (the vars reader leaves them out), one value a line. */
function starterVars(): string {
  const values = deploymentValues();
  const lines: string[] = [];
  const taken = new Set<string>();
  for (const v of values) {
    // A comment's key names the value it is about (a long one cut), once each.
    let key = `// ${clip(v.key, 60)}`;
    while (taken.has(key)) key += "'";
    taken.add(key);
    lines.push(`    ${j(key)}: ${j(v.comment)},`, `    ${j(v.key)}: ${j(v.value)},`);
  }
  const credentials = cli.credentialOptions.map(([key, , variable]) => `  ${j(key)}: ${j(`\${${variable}}`)},`);
  return [
    '{',
    `  "//": ${j('A vars file for messaging-conformance --vars, written by `messaging-conformance vars --init`. Keys that start with // are comments.')},`,
    `  "// credentials": ${j(`Each "\${NAME}" is read from the environment variable NAME (set it in your CI's secrets); a literal value here is used as it is. Credentials never appear in what the suite prints or writes.`)},`,
    ...credentials,
    '  "values": {',
    `    "//": ${j("Each key is an example value of the document, as JSON: 101 is the number, and a string's key is the string in quotes. Each value is your deployment's own that plays the same part; here each is the example's own (the sandbox's): edit each. Map a value of info.x-fixtures your deployment cannot make to null: the checks that need it are then not exercised.")},`,
    ...lines.map((line, i) => (i === lines.length - 1 ? line.replace(/,$/, '') : line)),
    '  }',
    '}',
    '',
  ].join('\n');
}

/** `vars --init [--output F] [--force]`: writes the starter file, refusing to overwrite one unless --force. */
export function varsCommand(args: string[], say: cli.Say, run: cli.RunState): number {
  const o = parse(args, { ...cli.strings('output'), ...cli.booleans('init', 'force') });
  if (!o.init) throw new UsageError('vars needs --init: messaging-conformance vars --init [--output <file>] [--force]');
  const output = cli.writable('output', o.output ?? defaultVarsFile);
  const text = starterVars();
  try {
    writeFileSync(output, text, { flag: o.force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new UsageError(`${o.output ? '--output ' : ''}${output} exists: --force overwrites it`);
    throw new UsageError(`--output ${output}: ${(error as Error).message}`);
  }
  const values = deploymentValues();
  const fixtures = values.filter((v) => v.fixture).map((v) => clip(v.key, 24));
  const variables = cli.credentialOptions.map(([, , variable]) => variable);
  say(
    `messaging-conformance: wrote ${output}: ${values.length} example values, each mapped to itself (the sandbox's), and the credentials read from ${variables.slice(0, -1).join(', ')} and ${variables.at(-1)}`,
  );
  say(
    `Edit it: map each key under "values" to your deployment's own value (the "// ..." line above each says where the examples use it); map a fixture your deployment cannot make (${fixtures.join(', ')}) to null; keep the \${...} placeholders or write the credentials (then keep the file out of version control).`,
  );
  say(`Then: messaging-conformance --server <url> --vars ${output}`);
  run.finished = true;
  return 0;
}
