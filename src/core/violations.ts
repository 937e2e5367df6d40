// Reads the violations of the cascade validation error's `detail`:
//   "<sentence>. Violations: <sentence> [key:value;key:value]; <sentence> [...]"
// `;` separates violations and also attributes inside brackets, numbers may carry group
// separators ("1,001"), and the sentences are not all published: anything that cannot be read is
// kept as an `unknown` violation with its raw text, never dropped.
import type { ChannelType } from './types.ts';

export type CascadeViolation =
  | { kind: 'no-stage-for-content'; cascadeTemplateId: number | string; channel: ChannelType | (string & {}) }
  | { kind: 'no-content-for-stage'; cascadeTemplateId: number | string; stageId: string; channel: ChannelType | (string & {}) }
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

function attributes(text: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const [, inner] of text.matchAll(/\[([^\]]*)\]/g)) {
    for (const pair of (inner ?? '').split(';')) {
      const at = pair.search(/[:=]/);
      if (at > 0) result.set(pair.slice(0, at).trim().toLowerCase().replace(/[\s_-]/g, ''), pair.slice(at + 1).trim());
    }
  }
  return result;
}

function find(attrs: Map<string, string>, test: (key: string) => boolean): string | undefined {
  for (const [key, value] of attrs) if (test(key)) return value;
  return undefined;
}

function violation(text: string): CascadeViolation {
  const attrs = attributes(text);
  const template = find(attrs, (k) => k.includes('template') || k === 'cascadeid');
  const stage = find(attrs, (k) => k.includes('uuid') || k === 'stageid' || k === 'stage');
  const channel = find(attrs, (k) => k.includes('channel'));
  if (template !== undefined && channel !== undefined) {
    const cascadeTemplateId = identifier(template);
    const channelType = channel.toUpperCase();
    if (stage !== undefined) return { kind: 'no-content-for-stage', cascadeTemplateId, stageId: stage, channel: channelType };
    return { kind: 'no-stage-for-content', cascadeTemplateId, channel: channelType };
  }
  return { kind: 'unknown', text };
}

export function parseCascadeViolations(detail: string | null | undefined): CascadeViolation[] {
  if (!detail) return [];
  const marker = /violations\s*:/i.exec(detail);
  const list = marker ? detail.slice(marker.index + marker[0].length) : detail;
  return splitOutsideBrackets(list).map(violation);
}
