// Starting the sandbox for tests, with the default fixtures' credentials.
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.ts';
import { loadFixtures } from '../../src/sandbox/fixtures.ts';
import type { Credentials } from '../../src/conformance/pairs.ts';

export const fixtures = loadFixtures();
export const credentials: Credentials = {
  apiKey: fixtures.apiKeys.find((k) => k.balance > 0)!.key,
  apiKeyNoBalance: fixtures.apiKeys.find((k) => k.balance <= 0)!.key,
  integratorToken: fixtures.integratorTokens[0]!,
};

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox & { url: string }> {
  const sandbox = createSandbox(options);
  const url = await sandbox.listen(0, '127.0.0.1');
  return Object.assign(sandbox, { url });
}

export async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': credentials.apiKey,
      authorization: `Bearer ${credentials.integratorToken}`,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
