// The gate on a temporary git repository whose tag v<this version> holds the base, through the real
// npm script once and then its function in this process: a breaking change fails without a major bump
// and passes with one.
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffMain } from '../../src/diff/cli.ts';
import { projectRoot } from '../../src/paths.ts';
import { outcome } from '../helpers/outcome.ts';

const run = promisify(execFile);
let repo: string;
let base: any;

/** `npm run diff` as a contract author runs it, in the temporary repository. */
const npmDiff = (...args: string[]) =>
  outcome(run('npm', ['run', '--silent', '--prefix', projectRoot, 'diff', '--', ...args], { cwd: repo }));
/** The same command in this process, in the environment npm gives it: INIT_CWD is the repository. */
const diff = async (...args: string[]) => {
  let out = '';
  const write = (text: string) => {
    out += text;
  };
  const code = await diffMain(args, { stdout: write, stderr: write, env: { ...process.env, INIT_CWD: repo } });
  return { code, out };
};
const write = (doc: unknown) => writeFile(join(repo, 'generated/openapi.json'), JSON.stringify(doc, null, 2));
const git = (...args: string[]) =>
  run('git', ['-C', repo, '-c', 'user.email=t@example.org', '-c', 'user.name=t', ...args]);

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'mc-gate-'));
  await mkdir(join(repo, 'generated'));
  base = JSON.parse(await readFile(join(projectRoot, 'test/fixtures/frozen-openapi.json'), 'utf8'));
  await git('init', '-q');
  await write(base);
  await git('add', '.');
  await git('commit', '-qm', 'v1');
  await git('tag', `v${base.info.version}`);
});
afterAll(async () => {
  if (repo) await rm(repo, { recursive: true, force: true });
});

describe('npm run diff as a gate', () => {
  it('passes when nothing changed (through npm)', async () => {
    const result = await npmDiff();
    expect(result.code, result.out).toBe(0);
    expect(result.out).toContain(`base v${base.info.version}:generated/openapi.json (version ${base.info.version})`);
    expect(result.out).toContain('0 changes');
  });

  it.each([
    [
      'removing resolved_threads',
      (d: any) => {
        delete d.components.schemas.ThreadsCloseResult.properties.resolved_threads;
      },
      'response 200 of closeThreads: property `resolved_threads` removed',
      'clients',
    ],
    [
      "lowering comment's maxLength",
      (d: any) => {
        d.components.schemas.CloseThreadsRequest.properties.comment.maxLength = 200;
      },
      'request body of closeThreads: `comment`: maxLength 300 -> 200',
      'callers: the witness example resolved with comment: 300 code points (Latin), valid under the base, is refused by the document (comment: got',
    ],
  ])(
    '%s fails without a major bump, naming the change, and passes with the next major',
    async (_name, change, sentence, who) => {
      const next = structuredClone(base);
      change(next);
      await write(next);
      const blocked = await diff();
      expect(blocked.code, blocked.out).toBe(1);
      expect(blocked.out).toContain(`breaking     ${sentence}`);
      expect(blocked.out).toMatch(/\n {13}at #\/paths\/~1api~1v1~1threads~1close\/post\//);
      expect(blocked.out).toContain(`\n             breaks ${who}`);
      const major = Number(base.info.version.split('.')[0]);
      expect(blocked.out).toContain(
        `need a new major version: info.version ${base.info.version} must become ${major + 1}.0.0 or later`,
      );
      next.info.version = `${major}.${Number(base.info.version.split('.')[1]) + 1}.0`;
      await write(next);
      expect((await diff()).code).toBe(1);
      next.info.version = `${major + 1}.0.0`;
      await write(next);
      const allowed = await diff();
      expect(allowed.code, allowed.out).toBe(0);
      expect(allowed.out).toContain(sentence);
    },
    60_000,
  );

  it('a non-breaking change passes without a bump; --base takes a file too', async () => {
    const next = structuredClone(base);
    next.components.schemas.CloseThreadsRequest.properties.comment.maxLength = 400;
    await write(next);
    expect((await diff()).code).toBe(0);
    await writeFile(join(repo, 'base.json'), JSON.stringify(base));
    const byFile = await diff('--base', 'base.json');
    expect(byFile.out).toContain('non-breaking request body of closeThreads: `comment`: maxLength 300 -> 400');
  }, 30_000);

  it('a release recorded by hand with a breaking change under a minor version fails: the release before it judges it', async () => {
    const [major, minor] = base.info.version.split('.').map(Number);
    const next = structuredClone(base);
    next.info.version = `${major}.${minor + 1}.0`;
    next.components.schemas.CloseThreadsRequest.properties.comment.maxLength = 200;
    await mkdir(join(repo, 'releases'), { recursive: true });
    try {
      await writeFile(join(repo, `releases/openapi-${base.info.version}.json`), JSON.stringify(base));
      await writeFile(join(repo, `releases/openapi-${next.info.version}.json`), JSON.stringify(next));
      await write(next);
      const recorded = await diff();
      expect(recorded.code, recorded.out).toBe(1);
      expect(recorded.out).toContain(`base releases/openapi-${next.info.version}.json`);
      expect(recorded.out).toContain('0 changes');
      expect(recorded.out).toContain(
        `diff: the working copy (version ${next.info.version}) against the release before it, ${base.info.version}: 1 breaking change(s) need a new major version`,
      );
    } finally {
      await rm(join(repo, 'releases'), { recursive: true, force: true });
      await write(base);
    }
  }, 30_000);

  it('a correction in releases/corrections.json accepts one breaking change for the release that introduces it, and a stale one fails', async () => {
    const [major, minor, patch] = base.info.version.split('.').map(Number);
    const next = structuredClone(base);
    next.info.version = `${major}.${minor}.${patch + 1}`;
    next.components.schemas.CloseThreadsRequest.properties.comment.maxLength = 200;
    await write(next);
    const at =
      '#/paths/~1api~1v1~1threads~1close/post/requestBody/content/application~1json/schema/properties/comment/maxLength';
    const corrections = (entries: unknown) =>
      writeFile(join(repo, 'releases/corrections.json'), JSON.stringify(entries));
    await mkdir(join(repo, 'releases'), { recursive: true });
    const why = 'the service always refused a comment over 200 characters';
    try {
      await corrections({ [next.info.version]: [{ at, why }] });
      const accepted = await diff();
      expect(accepted.code, accepted.out).toBe(0);
      expect(accepted.out).toContain('correction   request body of closeThreads: `comment`: maxLength 300 -> 200');
      expect(accepted.out).toContain(`accepted: ${why}`);
      expect(accepted.out).toContain('0 breaking, 1 correction');
      // A correction belongs to its release: one of the base's own version (history) or of another excuses nothing.
      await corrections({ [base.info.version]: [{ at, why }], '9.9.9': [{ at, why }] });
      expect((await diff()).code).toBe(1);
      // Once released, the document is its own base: no change, whatever the corrections file holds.
      await corrections({ [next.info.version]: [{ at, why: 'stale' }], x: 1 });
      expect((await diff('--base', 'generated/openapi.json')).code).toBe(0);
      await write({ ...base, info: { ...base.info, version: next.info.version } });
      await corrections({ [next.info.version]: [{ at, why: 'stale' }] });
      const stale = await diff();
      expect(stale.code, stale.out).toBe(1);
      expect(stale.out).toContain(
        `releases/corrections.json names ${at} for ${next.info.version}, but no breaking change is there`,
      );
      await corrections({ [next.info.version]: [{ at: 'comment', why: '' }] });
      const malformed = await diff();
      expect(malformed.code).not.toBe(0);
      expect(malformed.out).toContain(
        `releases/corrections.json: "${next.info.version}"[0].at: expected the JSON pointer npm run diff prints`,
      );
      expect(malformed.out).not.toMatch(/\n\s+at .*\.ts:\d+/);
    } finally {
      await rm(join(repo, 'releases'), { recursive: true, force: true });
      await write(base);
    }
  }, 60_000);
});
