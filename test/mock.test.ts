// The Prism mock serves every named response example of the document, each valid against its schema.
import { describe, expect, it } from 'vitest';
import { validator } from '../src/core/validators/all.ts';
import { examplePairs, validRequestBody } from '../src/core/examples.ts';
import { usePrismMock } from './helpers/prism.ts';

const pairs = examplePairs();
const prism = usePrismMock();

function credentials(security: string[]): Record<string, string> {
  return security.includes('apiKey') ? { 'x-api-key': 'any-key' } : { authorization: 'Bearer any-token' };
}

describe('Prism mock', () => {
  it.each(pairs.map((p) => [`${p.operation.operationId} ${p.status} ${p.name}`, p] as const))(
    '%s is served with Prefer and valid against its schema',
    async (_label, pair) => {
      // Prism validates the request first, so always send a request that is valid against the schema.
      const body = validRequestBody(pair);
      const res = await fetch(prism.url + pair.operation.path, {
        method: pair.operation.method,
        headers: {
          'content-type': 'application/json',
          prefer: `code=${pair.status}, example=${pair.name}`,
          ...credentials(pair.operation.security),
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(pair.status);
      const json: unknown = await res.json();
      expect(json).toEqual(pair.response);
      expect(validator(pair.responseSchemaPointer)(json).errors).toEqual([]);
    },
  );

  it('answers a schedule body that breaks the schema with the validation error, and the violations in sl-violations', async () => {
    const res = await fetch(`${prism.url}/api/cascade/schedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'any-key' },
      body: JSON.stringify({ cascadeId: 'not-a-number', content: [] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ title: 'cascade-scheduling-request-not-valid', status: 400 });
    expect(res.headers.get('sl-violations')).toContain('cascadeId');
  });

  it('answers a request without credentials with 401', async () => {
    const res = await fetch(`${prism.url}/api/cascade/schedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(pairs.find((p) => p.name === 'scheduled')!.requestBody),
    });
    expect(res.status).toBe(401);
  });
});
