// Reads the violations of the cascade validation error's `detail`:
//   "<sentence>. Violations: <sentence> [key:value;key:value]; <sentence> [...]"
// `;` separates violations and also attributes inside brackets, and numbers may carry group
// separators ("1,001"). Each bracket group is one violation, read by its exact keys (those of the
// service's example); the sentence before it is kept as `text`. The sentences are not all
// published: anything that cannot be read is kept as an `unknown` violation with its text, never
// dropped.
import type { ChannelType } from './types.ts';

export type CascadeViolation =
  | { kind: 'no-stage-for-content'; cascadeTemplateId: number | string; channel: ChannelType; text: string }
  | {
      kind: 'no-content-for-stage';
      cascadeTemplateId: number | string;
      stageId: string;
      channel: ChannelType;
      text: string;
    }
  | { kind: 'unknown'; text: string };

/** Splits on `;` and newlines that are outside brackets. */
function splitOutsideBrackets(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '[') depth++;
    if (ch === ']') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ';' || ch === '\n')) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** "1,001", "1 001", "1.001", "1'001" -> 1001; anything else stays the string it was. */
function identifier(value: string): number | string {
  const digits = value.replace(/[\s,.'\u00a0\u202f\u2009]/g, '');
  return /^\d+$/.test(digits) && Number.isSafeInteger(Number(digits)) ? Number(digits) : value.trim();
}

/** `key:value;key:value` -> entries; null when a pair has no `:` or a key repeats. */
function attributes(inner: string): Map<string, string> | null {
  const result = new Map<string, string>();
  for (const pair of inner.split(';')) {
    const at = pair.indexOf(':');
    const key = pair.slice(0, at).trim();
    if (at <= 0 || result.has(key)) return null;
    result.set(key, pair.slice(at + 1).trim());
  }
  return result;
}

/** Each known kind by its exact keys: the service's key -> the field it fills. */
const kinds: Array<[kind: 'no-stage-for-content' | 'no-content-for-stage', keys: Record<string, string>]> = [
  ['no-stage-for-content', { cascadeTemplateId: 'cascadeTemplateId', contentChannelType: 'channel' }],
  ['no-content-for-stage', { cascadeTemplateId: 'cascadeTemplateId', stageUUID: 'stageId', channelType: 'channel' }],
];

function violation(sentence: string, group: string): CascadeViolation {
  const text = `${sentence} [${group}]`.trim();
  const attrs = attributes(group);
  for (const [kind, keys] of kinds) {
    const names = Object.keys(keys);
    if (attrs?.size !== names.length || !names.every((k) => attrs.has(k))) continue;
    const v: Record<string, unknown> = { kind };
    for (const k of names) v[keys[k]!] = attrs.get(k);
    v.cascadeTemplateId = identifier(v.cascadeTemplateId as string);
    v.channel = (v.channel as string).toUpperCase();
    v.text = text;
    return v as CascadeViolation;
  }
  return { kind: 'unknown', text };
}

export function parseCascadeViolations(detail: string | null | undefined): CascadeViolation[] {
  if (!detail) return [];
  const marker = /violations\s*:/i.exec(detail);
  const list = marker ? detail.slice(marker.index + marker[0].length) : detail;
  return splitOutsideBrackets(list).flatMap((segment) => {
    const groups = [...segment.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
    if (groups.length === 0) return [{ kind: 'unknown' as const, text: segment }];
    const sentence = segment
      .replace(/\[[^\]]*\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return groups.map((group) => violation(sentence, group));
  });
}

/**
 * The items of a detail's `Violations:` list that hold more than one bracketed group: violations run together where
 * section 7.2 separates them by semicolons (the parser above still reads each, as a client should).
 */
export function runTogether(detail: string): string[] {
  const marker = /violations\s*:/i.exec(detail);
  if (!marker) return [];
  return splitOutsideBrackets(detail.slice(marker.index + marker[0].length)).filter(
    (segment) => (segment.match(/\[[^\]]*\]/g) ?? []).length > 1,
  );
}

/**
 * What a violation names, without its wording or its keys: the values in its brackets (numbers without group
 * separators, in upper case), for comparing answers whose keys differ.
 */
export function violationValues(v: CascadeViolation): string {
  const group = /\[([^\]]*)\]\s*$/.exec(v.text)?.[1];
  if (group === undefined) return `unknown ${v.text}`;
  return group
    .split(';')
    .map((pair) => String(identifier(pair.slice(pair.indexOf(':') + 1))).toUpperCase())
    .sort()
    .join(';');
}

/** What identifies a violation, without its wording: for comparing two servers' answers. */
export function violationKey(v: CascadeViolation): string {
  return v.kind === 'unknown' ? `unknown ${v.text}` : JSON.stringify({ ...v, text: undefined });
}
