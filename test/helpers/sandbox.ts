// Starting the sandbox for tests, with the default fixtures' credentials.
import { afterAll, beforeAll } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.ts';
import { loadFixtures } from '../../src/sandbox/fixtures.ts';
import { apiKeyHeader } from '../../src/core/meta.ts';
import type { Credentials } from '../../src/conformance/document/pairs.ts';

export const fixtures = loadFixtures();
export const credentials: Credentials = {
  apiKey: fixtures.apiKeys.find((k) => k.balance > 0)!.key,
  apiKeyNoBalance: fixtures.apiKeys.find((k) => k.balance <= 0)!.key,
  integratorToken: fixtures.integratorTokens[0]!,
};

/**
 * createSandbox listening on a free port: the sandbox with its internals (state, delivery), unlike the public
 * startSandbox.
 */
export async function listenSandbox(options: SandboxOptions = {}): Promise<Sandbox & { url: string }> {
  const sandbox = createSandbox(options);
  const url = await sandbox.listen(0, '127.0.0.1');
  return Object.assign(sandbox, { url });
}

/**
 * One sandbox for a test file: started before its tests, always stopped after. The object it
 * returns stands for the running sandbox from `beforeAll` on.
 */
export function useSandbox(options: SandboxOptions = {}): Sandbox & { url: string } {
  let running: (Sandbox & { url: string }) | undefined;
  beforeAll(async () => {
    running = await listenSandbox(options);
  });
  afterAll(async () => {
    await running?.close();
  });
  return new Proxy({} as Sandbox & { url: string }, {
    get(_target, key) {
      if (!running) throw new Error('useSandbox(): the sandbox starts in beforeAll; use it inside a test or a hook');
      const value = (running as unknown as Record<PropertyKey, unknown>)[key];
      return typeof value === 'function' ? value.bind(running) : value;
    },
  });
}

/** A JSON request's headers with the default fixtures' credentials (either an operation takes). */
export const jsonHeaders: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  [apiKeyHeader]: credentials.apiKey,
  authorization: `Bearer ${credentials.integratorToken}`,
};

export async function post(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { ...jsonHeaders, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
