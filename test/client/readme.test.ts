// The client README names every option of createMessagingClient (and of its retry policy) with the
// default the code uses, and says why `error.code` and the service's spelling can differ, with the
// message an ApiError really gives then. Starts no process (test:unit).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { clientDefaults } from '../../src/client/client.ts';
import { ApiError } from '../../src/client/errors.ts';
import { retryPolicy } from '../../src/client/retry.ts';
import { errorCodeAliases } from '../../src/core/meta.ts';
import { projectRoot } from '../../src/paths.ts';

// Its prose as one line: a README wraps a sentence anywhere.
const readme = readFileSync(join(projectRoot, 'src/client/README.md'), 'utf8').replace(/\s+/g, ' ');

/** The property names of an interface in a source file. */
function members(file: string, name: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(projectRoot, file), 'utf8'), ts.ScriptTarget.Latest);
  const found = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  if (!found) throw new Error(`${file}: no interface ${name}`);
  return found.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
}

describe('src/client/README.md', () => {
  it('names every option of createMessagingClient and of its retry policy', () => {
    const options = members('src/client/client.ts', 'MessagingClientOptions');
    const retry = members('src/client/retry.ts', 'RetryOptions');
    expect(options).toEqual(expect.arrayContaining(['baseUrl', 'retry', 'timeoutMs']));
    expect(retry).toEqual(expect.arrayContaining(['retries', 'jitter']));
    for (const option of [...options, ...retry]) expect(readme, `option ${option}`).toContain(`\`${option}\``);
  });

  it('gives the defaults the code uses', () => {
    const policy = retryPolicy(undefined);
    const defaults: Record<string, unknown> = {
      ...clientDefaults,
      retries: policy.retries,
      baseDelayMs: policy.baseDelayMs,
      maxDelayMs: policy.maxDelayMs,
      jitter: policy.jitter,
    };
    for (const [option, value] of Object.entries(defaults))
      expect(readme, `${option}'s default`).toMatch(new RegExp(`\`${option}\` \\(default ${String(value)}[,)]`));
  });

  it("says why `code` can differ from the service's spelling, and the message that gives both", () => {
    expect(readme).toContain('`normalizeErrorCode`');
    for (const [spelling, code] of Object.entries(errorCodeAliases)) {
      const error = new ApiError('scheduleCascade', new Response(null, { status: 400 }), {
        title: spelling,
        detail: 'd',
      });
      expect(error.code).toBe(code);
      expect(error.title).toBe(spelling);
      expect(error.message).toBe(`scheduleCascade: 400 ${code} (the service wrote ${JSON.stringify(spelling)}): d`);
    }
    const shown = /`(scheduleCascade: 400 [^`]*\(the service wrote [^`]*\): )\.\.\.`/.exec(readme)?.[1];
    expect(shown, 'the README shows the message').toBeDefined();
    const error = new ApiError('scheduleCascade', new Response(null, { status: 400 }), {
      title: 'cascade-scheduling-request-not-valid',
      detail: 'd',
    });
    expect(error.message).toBe(`${shown}d`);
  });

  it('an ApiError in the one spelling names the code once', () => {
    const error = new ApiError('closeThreads', new Response(null, { status: 401 }), { title: 'auth-error' });
    expect(error.message).toBe('closeThreads: 401 auth-error');
  });
});
