// Content keys and channels (`viberContent` <-> VIBER), and the content types the contract knows
// per key, all read from the document's CascadeContent.
import { deref, resolvePointer } from '../core/document.ts';

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  enum?: string[];
};
const contentSchema = resolvePointer('#/components/schemas/CascadeContent') as Schema & {
  'x-channels': Record<string, string>;
};
const knownChannels = contentSchema['x-channels'];

/**
 * The channel a content key is for: `x-channels` of CascadeContent, else the key's own name (`telegramContent` ->
 * TELEGRAM).
 */
export function channelOf(key: string): string {
  return Object.hasOwn(knownChannels, key) ? knownChannels[key]! : key.replace(/Content$/, '').toUpperCase();
}

/** Channel -> its first content key in `x-channels`. */
const contentKeys = new Map<string, string>();
for (const [key, channel] of Object.entries(knownChannels))
  if (!contentKeys.has(channel)) contentKeys.set(channel, key);

/** The content key of a channel: the inverse of `channelOf`. */
export function contentKeyOf(channel: string): string {
  return contentKeys.get(channel) ?? `${channel.toLowerCase()}Content`;
}

/**
 * The known values of an open set, `anyOf: [Known..., string]`, given for `property` anywhere in `schema` (its allOf
 * members included).
 */
function knownValues(schema: Schema, property: string): string[] | undefined {
  const s = deref<Schema>(schema);
  const own = s.properties?.[property];
  const known =
    own &&
    deref<Schema>(own)
      .anyOf?.map((m) => deref<Schema>(m))
      .find((member) => member.enum)?.enum;
  return known ?? (s.allOf ?? []).map((member) => knownValues(member, property)).find(Boolean);
}

/** Content key -> the content types the contract knows for its channel. */
export const knownContentTypes = new Map(
  Object.entries(contentSchema.properties ?? {}).map(([key, schema]) => [
    key,
    knownValues(schema, 'contentType') ?? [],
  ]),
);
