// What tsc tells an app developer who gets a body wrong: the client's type by its name and the
// fields it has, never the machinery behind it (`Widened<...>`, `unknown & ...`, `Omit<...>`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';

// Outside the repository: npm test's lint and type check run beside this test and must not see the app's errors.
const dir = mkdtempSync(join(tmpdir(), 'mc-type-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** tsc's messages for an app's file, one per line of the file that has an error. */
function messages(app: string): string[] {
  const file = join(dir, 'app.ts');
  writeFileSync(file, app);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe("tsc's messages about the client's bodies", () => {
  it('name the type and its fields', () => {
    const found = messages(`
import { createMessagingClient } from '${join(projectRoot, 'src/client/index.ts')}';
const client = createMessagingClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', integratorToken: 't' });
void client.closeThreads({ threadId: [1] });
void client.scheduleCascade({ cascadeId: 1, subscriberFilter: { address: 'a', type: 'PHONE' }, content: {}, requestID: 'x' });
void client.scheduleCascade({
  cascadeId: 1,
  subscriberFilter: { address: 'a', type: 'PHONE' },
  content: { viberContent: { contentType: 'TEXT', txt: 'x' } },
});
`);
    expect(found).toHaveLength(3);
    expect(found[0]).toContain("'threadId' does not exist in type 'CloseThreadsRequest'");
    expect(found[1]).toContain("'requestID' does not exist in type 'ScheduleCascadeInput'");
    expect(found[2]).toMatch(/'txt' does not exist in type '\{ contentType: .*; text\?: string \| undefined; /);
    for (const message of found) expect(message).not.toMatch(/Widened|unknown &|& unknown|Omit</);
  }, 30_000);
});
