// Redaction: every credential of a run written as *** in all it prints and writes, and in every exchange it keeps.
import type { RecordedExchange } from './model.ts';

/** Replaces every secret in `text` with `***`, longer ones first, so one inside another goes whole. */
export function redactor(secrets: Array<string | undefined>): (text: string) => string {
  // A value under 4 characters is no secret anyone could keep: replacing it would only garble the text.
  const list = [...new Set(secrets)].filter((s): s is string => typeof s === 'string' && s.length >= 4);
  list.sort((a, b) => b.length - a.length);
  return (text) => list.reduce((t, secret) => t.split(secret).join('***'), text);
}

/** `value` with `redact` applied to every string in it. */
export function redactAll<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactAll(v, redact)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactAll(v, redact)])) as T;
}

/** The headers whose values are credentials, written as *** (an Authorization keeps its scheme). */
const credentialHeaders = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

const authScheme = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s+(.+)$/;

/** The secrets one credential header holds: the value, the token after a scheme, and each cookie's value alone. */
function credentialsIn(name: string, value: string): string[] {
  if (name.endsWith('authorization')) {
    const token = authScheme.exec(value)?.[2];
    return token === undefined ? [value] : [value, token];
  }
  // A body or a URL may echo the session id alone, without its `sid=`. Several Set-Cookie are joined with `, `; in
  // each, the first pair before `;` is the cookie (an Expires date has none).
  const pairs =
    name === 'cookie' ? value.split(';') : name === 'set-cookie' ? value.split(', ').map((c) => c.split(';')[0]!) : [];
  return [value, ...pairs.filter((p) => p.includes('=')).map((p) => p.slice(p.indexOf('=') + 1).trim())];
}

/**
 * The exchange with every credential as ***: the credential headers' values (`Bearer ***` keeps the scheme), and
 * those and `secrets` wherever else they occur (see `redactor`): the URL (percent-encoded too), the other headers (a
 * Referer), both bodies (an answer may echo a key) and the error.
 */
export function redactExchange(x: RecordedExchange, secrets: string[] = []): RecordedExchange {
  const found = [...secrets];
  for (const h of [x.request.headers, x.response?.headers ?? {}])
    for (const [name, value] of Object.entries(h))
      if (credentialHeaders.has(name.toLowerCase())) found.push(...credentialsIn(name.toLowerCase(), value));
  const hide = redactor(found.flatMap((s) => [s, encodeURIComponent(s)]));
  const headers = (h: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(h).map(([name, value]) => {
        const lower = name.toLowerCase();
        if (!credentialHeaders.has(lower)) return [name, hide(value)];
        const scheme = lower.endsWith('authorization') ? authScheme.exec(value)?.[1] : undefined;
        return [name, scheme ? `${scheme} ***` : '***'];
      }),
    );
  const { request: r, response: a } = x;
  return {
    at: x.at,
    request: { method: r.method, url: hide(r.url), headers: headers(r.headers), body: r.body && hide(r.body) },
    response: a && { status: a.status, headers: headers(a.headers), body: hide(a.body) },
    ...(x.error === undefined ? {} : { error: hide(x.error) }),
    source: x.source,
    ...(x.reset ? { reset: true } : {}),
  };
}
