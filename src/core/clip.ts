// Text cut short for a reader: a message, a report line.
/**
 * Text cut to about `max` characters where a reader can see it was cut: after a space or a JSON separator, never inside
 * a word, a number, an identifier or a surrogate pair, and marked `…`.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 1);
  let at = -1;
  for (const m of head.matchAll(/[\s,;:{}[\]()]/g)) at = m.index;
  // After the last separator (a space dropped); with none, one token fills it all: cut at a whole code point.
  const cut = at > 0 ? at + (/\s/.test(head[at]!) ? 0 : 1) : max - (/[\uD800-\uDBFF]/.test(text[max - 1]!) ? 1 : 0);
  return `${text.slice(0, cut).trimEnd()} …`;
}
