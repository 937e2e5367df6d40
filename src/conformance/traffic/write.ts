// Writing exchanges: NDJSON (one exchange per line, the shape `traffic` reads) or HAR 1.2 for a `.har` name, streamed
// as they come, so a long recording holds no more than what the disk has not yet taken. The recorders write what they
// are given: the caller redacts first (`redactExchange`).
import { createWriteStream } from 'node:fs';
import conformancePackage from '../package.json' with { type: 'json' };
import { redactor } from '../ground/redaction.ts';
import type { RecordedExchange } from './exchange.ts';

/** The headers whose values are credentials, written as *** (an Authorization keeps its scheme). */
const credentialHeaders = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

const authScheme = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s+(.+)$/;

/** The secrets one credential header holds: the value, the token after a scheme, and each cookie's value alone. */
function credentialsIn(name: string, value: string): string[] {
  if (name.endsWith('authorization')) {
    const token = authScheme.exec(value)?.[2];
    return token === undefined ? [value] : [value, token];
  }
  // A body or a URL may echo the session id alone, without its `sid=`.
  const cookieValue = (pair: string) => pair.slice(pair.indexOf('=') + 1).trim();
  if (name === 'cookie')
    return [
      value,
      ...value
        .split(';')
        .filter((p) => p.includes('='))
        .map(cookieValue),
    ];
  // Several Set-Cookie joined with `, `; in each, the first pair before `;` is the cookie (an Expires date has none).
  if (name === 'set-cookie')
    return [
      value,
      ...value
        .split(', ')
        .map((c) => c.split(';')[0]!)
        .filter((p) => p.includes('='))
        .map(cookieValue),
    ];
  return [value];
}

/**
 * The exchange with every credential written as ***: the values of the credential headers (`Bearer ***` keeps the
 * scheme), and each of those values and of `secrets` wherever else it occurs: the URL (percent-encoded too), the other
 * headers (a Referer), both bodies (an answer may echo a key) and the error. Values under 4 characters are left where
 * they occur outside their header (see `redactor`): replacing them would garble the text.
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
  const r = x.request;
  const a = x.response;
  return {
    at: x.at,
    request: {
      method: r.method,
      url: hide(r.url),
      headers: headers(r.headers),
      body: r.body === undefined ? undefined : hide(r.body),
    },
    response: a && { status: a.status, headers: headers(a.headers), body: hide(a.body) },
    ...(x.error === undefined ? {} : { error: hide(x.error) }),
    source: x.source,
  };
}

/** One exchange as a line of NDJSON (the shape `messaging-conformance traffic` reads). */
export const ndjsonLine = (x: RecordedExchange): string => {
  const r = x.request;
  const a = x.response;
  // Fields picked one by one: what the caller hands over may carry more (an AbortSignal on a request).
  return `${JSON.stringify({
    startedAt: new Date(x.at).toISOString(),
    request: { method: r.method, url: r.url, headers: r.headers, body: r.body },
    response: a ? { status: a.status, headers: a.headers, body: a.body } : null,
    ...(x.error ? { error: x.error } : {}),
  })}\n`;
};

const nameValues = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));

const queryString = (url: string) =>
  URL.canParse(url) ? [...new URL(url).searchParams].map(([name, value]) => ({ name, value })) : [];

/** One exchange as a HAR 1.2 entry. The recorder measures no timings: those it cannot know are -1, the rest 0. */
function harEntry(x: RecordedExchange) {
  const r = x.request;
  const a = x.response;
  return {
    startedDateTime: new Date(x.at).toISOString(),
    time: 0,
    request: {
      method: r.method,
      url: r.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(r.headers),
      queryString: queryString(r.url),
      ...(r.body === undefined ? {} : { postData: { mimeType: r.headers['content-type'] ?? '', text: r.body } }),
      headersSize: -1,
      bodySize: r.body === undefined ? 0 : Buffer.byteLength(r.body),
    },
    response: a
      ? {
          status: a.status,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: nameValues(a.headers),
          content: { size: Buffer.byteLength(a.body), mimeType: a.headers['content-type'] ?? '', text: a.body },
          redirectURL: '',
          headersSize: -1,
          bodySize: Buffer.byteLength(a.body),
        }
      : // HAR has no "no answer": browsers write status 0, and the readers take it so.
        {
          status: 0,
          statusText: '',
          httpVersion: '',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: '' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
          ...(x.error ? { _error: x.error } : {}), // Chrome's field for why no answer came
        },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 },
  };
}

export interface Recorder {
  /** Queues one exchange, written as given (redact first); after `close` it throws. */
  write(x: RecordedExchange): void;
  /** Resolves when everything written is on disk (a HAR file's tail included); rejects if the file failed. */
  close(): Promise<void>;
}

/**
 * A recorder to `path`: HAR 1.2 for a `.har` name, NDJSON otherwise. One stream, so writes from many async callers (a
 * proxy's requests) go out whole and in call order; a HAR's head is written at once, each entry as it comes and the
 * tail at `close`. The exchanges are written as given: the caller redacts first (`redactExchange`). A file that cannot
 * be written stops the writing; `close` says why.
 */
export function recorder(path: string): Recorder {
  const out = createWriteStream(path);
  const har = /\.har$/i.test(path);
  let entries = 0;
  let failed: Error | undefined;
  let closed: Promise<void> | undefined;
  out.on('error', (error) => {
    failed ??= error;
  });
  if (har) {
    const creator = { name: 'messaging-conformance', version: conformancePackage.version };
    out.write(`{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[\n`);
  }
  return {
    write(x) {
      if (closed) throw new Error(`the recording ${path} is closed`);
      if (failed) return;
      out.write(har ? `${entries++ ? ',\n' : ''}${JSON.stringify(harEntry(x))}` : ndjsonLine(x));
    },
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        if (failed) {
          out.destroy();
          return reject(failed);
        }
        // The callback hears an error the 'error' event has not told yet (a file that could not be opened).
        out.end(har ? '\n]}}\n' : '', (error?: Error | null) =>
          error || failed ? reject(error || failed) : resolve(),
        );
      })),
  };
}
