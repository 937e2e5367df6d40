// Redaction: every credential of a run written as *** in all it prints and writes.

/**
 * Replaces every secret in `text` with `***`; longer secrets first, so one inside another goes whole. Values under 4
 * characters are not secrets anyone could keep: replacing them would only garble the text.
 */
export function redactor(secrets: Array<string | undefined>): (text: string) => string {
  const list = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => list.reduce((t, secret) => t.split(secret).join('***'), text);
}

/** `value` with `redact` applied to every string in it. */
export function redactAll<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactAll(v, redact)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactAll(v, redact)])) as T;
}
