// The rules of the three operations (close threads, create subscriber, schedule cascade), on the
// sandbox's state. Each returns the status and body to answer; nothing here does I/O, and nothing
// awaits between a check and the change it guards, so concurrent requests cannot both pass a
// check (a requestId is accepted once, a thread closed once).
import type { CascadeScheduleRequest, CloseThreadsRequest, CreateSubscriberRequest, Problem } from '../core/types.ts';
import { allRowsButtonErrors } from '../core/buttons.ts';
import { resolvePointer } from '../core/document.ts';
import { schemaViolation } from '../core/violation-codes.ts';
import type { SandboxState } from './state.ts';

export interface Reply {
  status: number;
  body: unknown;
}

export const problem = (status: number, title: string, detail?: string): Reply => ({
  status,
  body: { title, status, ...(detail === undefined ? {} : { detail }) } satisfies Problem,
});

type Schema = { $ref?: string; allOf?: Schema[]; anyOf?: Schema[]; properties?: Record<string, Schema>; enum?: string[] };
const contentSchema = resolvePointer('#/components/schemas/CascadeContent') as Schema & { 'x-channels': Record<string, string> };
const knownChannels = contentSchema['x-channels'];

/** The channel a content key is for: `x-channels` of CascadeContent, else the key's own name (`telegramContent` -> TELEGRAM). */
export function channelOf(key: string): string {
  return Object.hasOwn(knownChannels, key) ? knownChannels[key]! : key.replace(/Content$/, '').toUpperCase();
}

/** Channel -> its first content key in `x-channels`. */
const contentKeys = new Map<string, string>();
for (const [key, channel] of Object.entries(knownChannels)) if (!contentKeys.has(channel)) contentKeys.set(channel, key);

/** The content key of a channel: the inverse of `channelOf`. */
export function contentKeyOf(channel: string): string {
  return contentKeys.get(channel) ?? `${channel.toLowerCase()}Content`;
}

const deref = (s: Schema): Schema => (s.$ref ? deref(resolvePointer(s.$ref) as Schema) : s);

/** The known values of an open set, `anyOf: [Known..., string]`, given for `property` anywhere in `schema` (its allOf members included). */
function knownValues(schema: Schema, property: string): string[] | undefined {
  const s = deref(schema);
  const own = s.properties?.[property];
  const known = own && deref(own).anyOf?.map(deref).find((member) => member.enum)?.enum;
  return known ?? (s.allOf ?? []).map((member) => knownValues(member, property)).find(Boolean);
}

/** Content key -> the content types the contract knows for its channel. */
const knownContentTypes = new Map(
  Object.entries(contentSchema.properties ?? {}).map(([key, schema]) => [key, knownValues(schema, 'contentType') ?? []]),
);
/** Ids in violation details carry group separators, as the service writes them. */
const grouped = (n: number) => n.toLocaleString('en-US');

/** A thread or cascade identifier as sent: a number, or a BigInt past 2^53 (see the server). */
type Id = number | bigint;

/**
 * `body` is validated; `exact` is the same body with int64 identifiers past 2^53 as BigInts of the
 * digits sent. No fixture holds such an identifier, so none matches a thread or a cascade, and the
 * answer names it as sent.
 */
export function closeThreads(state: SandboxState, body: unknown, exact: unknown = body): Reply {
  const invalid = schemaViolation('closeThreads', body);
  if (invalid) return problem(invalid.status, invalid.code, invalid.detail);
  const { comment } = body as CloseThreadsRequest;
  const threadIds = (exact as { threadIds: Id[] }).threadIds;
  const result = { resolved_threads: [] as Id[], not_existing_threads: [] as Id[], already_resolved_threads: [] as Id[], not_resolved_due_to_system_error: [] as Id[] };
  const closedAt = new Date().toISOString();
  // A repeated identifier is handled once, by its state before the call (documented on threadIds).
  for (const id of new Set(threadIds)) {
    const thread = typeof id === 'number' ? state.threads.get(id) : undefined;
    if (!thread) result.not_existing_threads.push(id);
    else if (thread.state === 'closed') result.already_resolved_threads.push(id);
    else if (thread.failOnClose) result.not_resolved_due_to_system_error.push(id);
    else {
      thread.state = 'closed';
      thread.closedAt = closedAt;
      if (comment !== undefined) thread.comment = comment;
      result.resolved_threads.push(id);
    }
  }
  return { status: 200, body: result };
}

export function createSubscriber(state: SandboxState, body: unknown): Reply {
  const invalid = schemaViolation('createSubscriber', body);
  if (invalid) return problem(invalid.status, invalid.code, invalid.detail);
  const request = body as CreateSubscriberRequest;
  for (const [i, p] of (request.parameterValues ?? []).entries()) {
    const definition = state.parameters.get(p.name);
    if (!definition) return problem(400, 'parameter-not-found', `parameterValues[${i}].name is ${p.name}; no such parameter is defined.`);
    if (definition.type !== p.valueType) {
      return problem(400, 'parameter-value-is-not-valid', `parameterValues[${i}].valueType is ${p.valueType}; parameter ${p.name} is of type ${definition.type}.`);
    }
    if (definition.type === 'ENUM' && !definition.values!.includes(p.value)) {
      return problem(400, 'parameter-value-is-not-valid', `parameterValues[${i}].value is ${p.value}; expected one of ${definition.values!.join(', ')}.`);
    }
  }
  for (const [i, t] of (request.tagValues ?? []).entries()) {
    if (!state.tags.has(t.name)) return problem(400, 'tag-not-found', `tagValues[${i}].name is ${t.name}; no such tag was created.`);
  }
  const extUserId = request.addresses.find((a) => a.type === 'EXT_USER_ID')!.address;
  if (state.subscribers.has(extUserId)) {
    return problem(400, 'subscriber-already-exists', `A subscriber with address ${extUserId} of type EXT_USER_ID exists.`);
  }
  state.subscribers.set(extUserId, { extUserId, request });
  return { status: 200, body: {} };
}

export interface Accepted {
  request: CascadeScheduleRequest;
  acceptedAt: number;
}

export function scheduleCascade(state: SandboxState, body: unknown, apiKey: string, accept: (a: Accepted) => void, now: number, exact: unknown = body): Reply {
  const invalid = schemaViolation('scheduleCascade', body);
  if (invalid) return problem(invalid.status, invalid.code, invalid.detail);
  const request = body as CascadeScheduleRequest;
  if (state.requestIdTaken(request.requestId, now)) {
    return problem(400, 'requestId-is-not-unique', `requestId ${request.requestId} was used before.`);
  }
  const cascadeId = (exact as { cascadeId: Id }).cascadeId;
  const cascade = typeof cascadeId === 'number' ? state.cascades.get(cascadeId) : undefined;
  if (!cascade) return problem(400, 'cascade-not-found', `No cascade with id ${cascadeId}.`);

  // Every content key is for a channel, a known one or not: one the cascade has no stage for is a violation.
  const sent = Object.keys(request.content);
  const foreign = sent.filter((key) => {
    const channel = channelOf(key);
    return !cascade.stages.some((s) => s.channel === channel);
  });
  const missing = cascade.stages.filter((s) => !sent.some((key) => channelOf(key) === s.channel));
  if (foreign.length > 0 || missing.length > 0) {
    const violations = [
      ...foreign.map((key) => `Cascade has no stage for the content channel [cascadeTemplateId:${grouped(cascade.id)};contentChannelType:${channelOf(key)}]`),
      ...missing.map((s) => `Content is missing for the cascade stage [cascadeTemplateId:${grouped(cascade.id)};stageUUID:${s.uuid};channelType:${s.channel}]`),
    ].join('; ');
    return foreign.length > 0
      ? problem(400, 'cascade-scheduling-request-not-valid', `Cascade scheduling request is not valid. Violations: ${violations}`)
      : problem(400, 'request-doesn’t-contain-content-for-all-cascade-stages', `Request does not contain content for all cascade stages. Violations: ${violations}`);
  }

  const buttonErrors = allRowsButtonErrors(request);
  if (buttonErrors.length > 0) return problem(400, 'button-validation-error', buttonErrors.join('; '));
  for (const key of sent) {
    const entry = request.content[key as keyof typeof request.content] as { contentType: string; text?: string };
    // Content types are an open set; the sandbox has templates for the known ones only [contract decision].
    const known = knownContentTypes.get(key);
    if (known && !known.includes(entry.contentType)) {
      return problem(400, 'matched-template-not-found', `content.${key}.contentType is ${entry.contentType}; the account has no ${channelOf(key)} template of that type.`);
    }
    if (entry.contentType === 'TEXT' && !state.matchesTemplate(channelOf(key), entry.text)) {
      return problem(400, 'matched-template-not-found', `content.${key} matches no ${channelOf(key)} template of the account.`);
    }
  }
  if ((state.apiKeys.get(apiKey)?.balance ?? 0) <= 0) return problem(400, 'out-of-balance', "The account's balance is insufficient.");

  state.takeRequestId(request.requestId, now);
  accept({ request, acceptedAt: now });
  return { status: 200, body: { requestId: request.requestId } };
}
