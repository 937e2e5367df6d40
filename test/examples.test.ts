// The named examples are the contract's test cases: each must be true to its schema and complete.
import { describe, expect, it } from 'vitest';
import { openapi, resolvePointer } from '../src/core/document.ts';
import { schemaValidator, validator } from '../src/core/validators/all.ts';
import { examplePairs, documentOperations, orphanRequestExamples } from '../src/core/examples.ts';
import { loadFixtures } from '../src/sandbox/fixtures.ts';

const fixtures = loadFixtures();

const pairs = examplePairs();
const triggerKeys = new Set([
  'body',
  'rawBody',
  'credentials',
  'method',
  'path',
  'sendTwice',
  'probe',
  'decided',
  'otherCodes',
]);

describe('named examples', () => {
  it('every operation has a success example and an example for each documented status', () => {
    for (const op of documentOperations()) {
      const statuses = new Set(pairs.filter((p) => p.operation.operationId === op.operationId).map((p) => p.status));
      expect([...statuses].sort(), op.operationId).toEqual([200, 400, 401, 404, 405, 500]);
    }
  });

  it.each(pairs.map((p) => [`${p.operation.operationId} ${p.status} ${p.name}`, p] as const))(
    '%s: response valid against its schema, status in body, request known',
    (_label, pair) => {
      const result = validator(pair.responseSchemaPointer)(pair.response);
      expect(result.errors).toEqual([]);
      if (pair.status >= 400) expect((pair.response as { status: number }).status).toBe(pair.status);
      expect(Object.keys(pair.trigger).filter((k) => !triggerKeys.has(k))).toEqual([]);
      // Either a same-named request example or an explicit trigger says how to get this response.
      expect(pair.paired || Object.keys(pair.trigger).length > 0).toBe(true);
    },
  );

  it("an example's other codes (`otherCodes`) are known codes listed after its own: its code is the one listed first", () => {
    const codes = resolvePointer('#/components/schemas/KnownErrorCode') as {
      enum: string[];
      'x-aliases': Record<string, string>;
    };
    const known = codes.enum;
    const aliases = codes['x-aliases'];
    const place = (code: string) => known.indexOf(aliases[code] ?? code);
    const withOthers = pairs.filter((p) => p.trigger.otherCodes);
    expect(withOthers.length).toBeGreaterThan(0);
    for (const pair of withOthers) {
      const own = place((pair.response as { title: string }).title);
      expect(own, pair.name).toBeGreaterThanOrEqual(0);
      for (const code of pair.trigger.otherCodes!) expect(place(code), `${pair.name}: ${code}`).toBeGreaterThan(own);
    }
  });

  it('every request example has a response example of the same name', () => {
    expect(orphanRequestExamples()).toEqual([]);
  });

  it('a same-named request example is valid against the request schema', () => {
    for (const pair of pairs.filter((p) => p.paired)) {
      const result = validator(pair.operation.requestSchemaPointer!)(pair.requestBody);
      expect(result.errors, `${pair.operation.operationId}/${pair.name}`).toEqual([]);
    }
  });

  it('a trigger body for a field-level 400 code breaks the request schema at the field the code names', () => {
    // Codes that a schema violation stands for, and the field each names.
    const fieldOf: Record<string, string> = {
      'content-not-specified': 'content',
      'contentType-not-specified': 'contentType',
      'text-not-specified': 'text',
      'caption-not-specified': 'caption',
      'action-not-specified': 'action',
      'attachmentName-not-specified': 'attachment.name',
      'attachmentName-is-too-long': 'attachment.name',
      'latitude-not-specified': 'latitude',
      'longitude-not-specified': 'longitude',
      'template-parameter-is-not-valid': 'items[0].title',
      'button-validation-error': 'buttons',
      'mm-api-options-invalid-combination': 'whatsappContent',
      'comment-is-too-long': 'comment',
      'ext-user-id-not-specified': 'addresses',
      'parameter-value-is-not-valid': 'value',
    };
    const checked = pairs.filter(
      (p) => p.trigger.body !== undefined && fieldOf[(p.response as { title: string }).title],
    );
    expect(checked.length).toBeGreaterThanOrEqual(15);
    for (const pair of checked) {
      const result = validator(pair.operation.requestSchemaPointer!)(pair.requestBody);
      const field = fieldOf[(pair.response as { title: string }).title]!;
      expect(result.valid, pair.name).toBe(false);
      expect(
        result.errors.some((e) => e.split(':')[0]!.endsWith(field)),
        `${pair.name}: ${result.errors.join(' | ')}`,
      ).toBe(true);
    }
  });

  it('the callback examples tell one story with the scheduling examples and the sandbox fixtures', () => {
    const examples = (openapi as any).webhooks.messageStatus.post.requestBody.content['application/json'].examples;
    const scheduled = new Map(
      pairs
        .filter((p) => p.operation.operationId === 'scheduleCascade' && p.paired)
        .map((p) => [(p.requestBody as { requestId: string }).requestId, p.requestBody as { cascadeId: number }]),
    );
    // A callback example that names its scheduling request (`x-request`) reports that request.
    for (const { value, 'x-request': trigger } of Object.values<any>(examples))
      if (trigger) scheduled.set(value.requestId, trigger.body);
    let told = 0;
    for (const [name, { value }] of Object.entries<any>(examples)) {
      if (value.cascadeId === undefined) continue;
      const cascade = fixtures.cascades.find((c) => c.id === Number(value.cascadeId));
      const stage = cascade?.stages.find((s) => s.uuid === value.cascadeStageUUID);
      expect(stage, `${name}: stage ${value.cascadeStageUUID} of cascade ${value.cascadeId}`).toBeDefined();
      expect(value.subjectId, name).toBe(stage!.subjectId);
      const request = scheduled.get(value.requestId);
      if (request) {
        expect(Number(value.cascadeId), `${name}: the cascade its requestId was scheduled on`).toBe(request.cascadeId);
        told++;
      }
    }
    expect(told).toBeGreaterThanOrEqual(3);
  });

  it('the webhook examples are valid callbacks', () => {
    const examples = (openapi as any).webhooks.messageStatus.post.requestBody.content['application/json'].examples;
    expect(Object.keys(examples).length).toBeGreaterThanOrEqual(3);
    for (const [name, example] of Object.entries<any>(examples)) {
      expect(schemaValidator('StatusCallback')(example.value).errors, name).toEqual([]);
    }
  });
});
