// The registry's checks of a callback: a status callback the service posted (its payload is the service's side) and
// the receiver's answer to it (the receiver's side: the app that registered the URL). A callback in recorded traffic is
// a POST to --callback-path, or, without one, a POST to no operation's path whose body has every property the
// webhook's schema requires.
import { openapi, resolvePointer } from '../../core/document.ts';
import { marked, type ExpectationKind } from '../../core/examples.ts';
import type { PointCheck } from '../ground/model.ts';
import { schemaFaults } from './schema.ts';

/** Each webhook of the document: its name and the pointer of its payload's schema (a `$ref` is followed). */
const webhooks = Object.entries((openapi.webhooks ?? {}) as Record<string, { post?: any }>).flatMap(([name, item]) => {
  const schema = item.post?.requestBody?.content?.['application/json']?.schema as { $ref?: string } | undefined;
  if (!schema) return [];
  const pointer = schema.$ref ?? `#/webhooks/${name}/post/requestBody/content/application~1json/schema`;
  const required = (resolvePointer(pointer) as { required?: string[] }).required ?? [];
  return [{ name, pointer, required }];
});

/** The callback a request is, or undefined: a JSON object POSTed to `callbackPath`, or shaped as a webhook's payload. */
export function callbackOf(method: string, path: string, body: string | undefined, callbackPath?: string) {
  if (method.toUpperCase() !== 'POST') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body ?? '');
  } catch {
    value = undefined;
  }
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (callbackPath !== undefined) {
    if (path !== callbackPath) return undefined;
    const shaped = webhooks.find((w) => isObject && w.required.every((p) => Object.hasOwn(value as object, p)));
    return { webhook: (shaped ?? webhooks[0])?.name ?? 'callback', body: value };
  }
  const shaped = isObject && webhooks.find((w) => w.required.every((p) => Object.hasOwn(value as object, p)));
  return shaped ? { webhook: shaped.name, body: value } : undefined;
}

const schemaOf = (webhook: string) => webhooks.find((w) => w.name === webhook)?.pointer;

export const callbackChecks: PointCheck<'callback'>[] = [
  {
    id: 'callback-schema',
    family: 'callback',
    side: 'service',
    holds: "a callback's payload is valid against its webhook's schema",
    faults(c) {
      const pointer = schemaOf(c.webhook);
      if (!pointer) return [];
      // A property this contract requires where the description shows none is its decision (the schema says so).
      const decided: ExpectationKind = marked(resolvePointer(pointer) as Record<string, unknown>)
        ? 'decision'
        : 'described';
      return schemaFaults(pointer, c.body, `a ${c.webhook} callback`).map((f) =>
        f.key?.endsWith('/required') || /\/required\/[^/]+$/.test(f.key ?? '') ? { ...f, kind: decided } : f,
      );
    },
  },
  {
    id: 'receiver-answer',
    family: 'callback',
    side: 'caller',
    holds: 'a receiver answers a valid callback with 200 (otherwise the service posts it again)',
    after: ['callback-schema'],
    faults: (c) =>
      c.answer === undefined || c.answer.status === 200
        ? []
        : [
            {
              fault: `a receiver answered a valid ${c.webhook} callback with ${c.answer.status}`,
              key: `receiver ${c.answer.status}`,
              detail: `answered ${c.answer.status} ${c.answer.text.slice(0, 120)}`,
            },
          ],
  },
  {
    // What is not a callback (malformed JSON, another media type, an oversized body) is this contract's expectation.
    id: 'receiver-survives',
    family: 'callback',
    side: 'caller',
    holds: 'a receiver answers a post that is no valid callback with anything but a 5xx [contract decision]',
    concerns: (c) => c.answer !== undefined && c.answer.status >= 500,
    faults: (c) =>
      schemaOf(c.webhook) && schemaFaults(schemaOf(c.webhook)!, c.body, c.webhook).length
        ? [
            {
              fault: 'a receiver answered a post that is no callback with a 5xx',
              kind: 'decision',
              detail: `answered ${c.answer!.status}`,
            },
          ]
        : [],
  },
];

/**
 * The checks only the callbacks stage can make: its receiver hears every callback about the messages it scheduled, a
 * closed world no recording is (a log need not hold the receiver's side). The stage finds their faults.
 */
const byTheStage = (id: string, holds: string): PointCheck<'run'> => ({
  id,
  family: 'run',
  side: 'service',
  holds,
  faults: () => [],
});
export const receivedChecks = [
  byTheStage('callback-arrives', 'every message accepted gets a callback naming it within the window'),
  byTheStage('callback-reports', 'a callback reports the values of the message it names (`x-links`)'),
  byTheStage('callback-statuses', 'a callback reports a result, where this contract decides so [contract decision]'),
];
