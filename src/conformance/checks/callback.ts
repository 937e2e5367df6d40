// The registry's checks of a callback: a status callback's payload (the service's side) and the receiver's answer to
// it (the caller's side: the app that registered the URL). In recorded traffic a callback is a POST to --callback-path,
// or, without one, a POST to no operation's path whose body has every property the webhook's schema requires.
import { openapi, resolvePointer } from '../../core/document.ts';
import { marked } from '../../core/examples.ts';
import { clip, type PointCheck } from '../ground/model.ts';
import { schemaFaults } from './schema.ts';

/** Each webhook of the document: its name and the pointer of its payload's schema (a `$ref` is followed). */
const webhooks = Object.entries((openapi.webhooks ?? {}) as Record<string, { post?: any }>).flatMap(([name, item]) => {
  const schema = item.post?.requestBody?.content?.['application/json']?.schema as { $ref?: string } | undefined;
  if (!schema) return [];
  const pointer = schema.$ref ?? `#/webhooks/${name}/post/requestBody/content/application~1json/schema`;
  return [{ name, pointer, required: (resolvePointer(pointer) as { required?: string[] }).required ?? [] }];
});

/** The callback a request is, or undefined: a JSON object POSTed to `callbackPath`, or shaped as a webhook's payload. */
export function callbackOf(method: string, path: string, body: string | undefined, callbackPath?: string) {
  if (method.toUpperCase() !== 'POST' || (callbackPath !== undefined && path !== callbackPath)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body ?? '');
  } catch {}
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const shaped = webhooks.find((w) => isObject && w.required.every((p) => Object.hasOwn(value as object, p)));
  if (callbackPath !== undefined) return { webhook: (shaped ?? webhooks[0])?.name ?? 'callback', body: value };
  return shaped && { webhook: shaped.name, body: value };
}

const schemaOf = (webhook: string) => webhooks.find((w) => w.name === webhook)?.pointer;
const ofCallback = (checks: Omit<PointCheck<'callback'>, 'family'>[]) =>
  checks.map((c): PointCheck<'callback'> => ({ ...c, family: 'callback' }));

export const callbackChecks = ofCallback([
  {
    id: 'callback-schema',
    side: 'service',
    holds: "a callback's payload is valid against its webhook's schema",
    faults(c) {
      const pointer = schemaOf(c.webhook);
      if (!pointer) return [];
      // A property this contract requires where the description shows none is its decision (the schema says so).
      const kind = marked(resolvePointer(pointer) as Record<string, unknown>) ? 'decision' : 'described';
      return schemaFaults(pointer, c.body, `a ${c.webhook} callback`).map((f) =>
        /\/required(\/[^/]+)?$/.test(f.key) ? { ...f, kind } : f,
      );
    },
  },
  {
    id: 'receiver-answer',
    side: 'caller',
    holds: 'a receiver answers a valid callback with 200 (otherwise the service posts it again)',
    after: ['callback-schema'],
    faults({ answer, webhook }) {
      if (answer === undefined || answer.status === 200) return [];
      const fault = `a receiver answered a valid ${webhook} callback with ${answer.status}`;
      const detail = `answered ${answer.status} ${clip(answer.text, 120)}`;
      return [{ fault, key: `receiver ${answer.status}`, detail }];
    },
  },
  {
    // What is not a callback (malformed JSON, another media type, an oversized body) is this contract's expectation.
    id: 'receiver-survives',
    side: 'caller',
    holds: 'a receiver answers a post that is no valid callback with anything but a 5xx [contract decision]',
    concerns: (c) => c.answer !== undefined && c.answer.status >= 500,
    faults(c) {
      const pointer = schemaOf(c.webhook);
      if (!pointer || !schemaFaults(pointer, c.body, c.webhook).length) return [];
      const fault = 'a receiver answered a post that is no callback with a 5xx';
      return [{ fault, kind: 'decision', detail: `answered ${c.answer!.status}` }];
    },
  },
]);

/**
 * The checks only the callbacks stage can make (it finds their faults): its receiver hears every callback about the
 * messages it scheduled, a closed world no recording is (a log need not hold the receiver's side).
 */
export const receivedChecks = [
  { id: 'callback-arrives', holds: 'every message accepted gets a callback naming it within the window' },
  { id: 'callback-reports', holds: 'a callback reports the values of the message it names (`x-links`)' },
  {
    id: 'callback-outcome',
    holds: 'a message the document gives a delivery outcome (a webhook example) is reported so',
  },
  {
    id: 'callback-duplicated',
    holds: 'an identical message sent again within the duplicate window is reported duplicated',
  },
  {
    id: 'callback-after-delivered',
    holds: 'a message delivered at a stage is reported at no later stage [contract decision]',
  },
  { id: 'callback-statuses', holds: 'a callback reports a result, where this contract decides so [contract decision]' },
].map((c): PointCheck<'run'> => ({ ...c, family: 'run', side: 'service', faults: () => [] }));
