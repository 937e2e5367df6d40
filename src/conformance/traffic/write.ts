// Writing exchanges: NDJSON (one exchange per line, the shape `traffic` reads) or HAR 1.2 for a `.har` name, streamed
// as they come, so a long recording needs no more memory than one exchange. The recorders write what they are given:
// the caller redacts first (`redactExchange`).
import { createWriteStream } from 'node:fs';
import type { RecordedExchange } from './exchange.ts';

/** The headers whose values are credentials, written as *** (an Authorization keeps its scheme). */
const secretHeaders = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** `text` with each secret (4 characters or more, the longest first) written as ***. */
const hide = (text: string, secrets: string[]) => secrets.reduce((t, s) => t.split(s).join('***'), text);

/**
 * The exchange with every credential written as ***: the values of the credential headers, and each of them (and of
 * `extra`) wherever it occurs in the URL, the headers and both bodies (an answer may echo a key).
 */
export function redactExchange(x: RecordedExchange, extra: string[] = []): RecordedExchange {
  const found: string[] = [...extra];
  const headers = (h: Record<string, string>) => {
    for (const [name, value] of Object.entries(h))
      if (secretHeaders.has(name)) {
        const scheme = name.endsWith('authorization') ? /^(\w+)\s+(.+)$/.exec(value) : null;
        found.push(scheme ? scheme[2]! : value);
      }
  };
  headers(x.request.headers);
  if (x.response) headers(x.response.headers);
  const secrets = [...new Set(found.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  const redactHeaders = (h: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(h).map(([name, value]) => {
        if (!secretHeaders.has(name)) return [name, hide(value, secrets)];
        const scheme = name.endsWith('authorization') ? /^(\w+)\s/.exec(value) : null;
        return [name, scheme ? `${scheme[1]} ***` : '***'];
      }),
    );
  return {
    ...x,
    request: {
      ...x.request,
      url: hide(x.request.url, secrets),
      headers: redactHeaders(x.request.headers),
      body: x.request.body === undefined ? undefined : hide(x.request.body, secrets),
    },
    response: x.response && {
      ...x.response,
      headers: redactHeaders(x.response.headers),
      body: hide(x.response.body, secrets),
    },
  };
}

/** One exchange as a line of NDJSON (the shape `messaging-conformance traffic` reads). */
export const ndjsonLine = (x: RecordedExchange) =>
  `${JSON.stringify({
    startedAt: new Date(x.at).toISOString(),
    request: x.request,
    response: x.response ?? null,
    ...(x.error ? { error: x.error } : {}),
  })}\n`;

const nameValues = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));

/** One exchange as a HAR 1.2 entry. */
function harEntry(x: RecordedExchange) {
  const r = x.request;
  const a = x.response;
  return {
    startedDateTime: new Date(x.at).toISOString(),
    time: -1,
    request: {
      method: r.method,
      url: r.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(r.headers),
      queryString: [...new URL(r.url).searchParams].map(([name, value]) => ({ name, value })),
      ...(r.body === undefined
        ? {}
        : { postData: { mimeType: r.headers['content-type'] ?? '', params: [], text: r.body } }),
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
          // Chrome's field for why no answer came.
          ...(x.error ? { _error: x.error } : {}),
        },
    cache: {},
    timings: { send: 0, wait: -1, receive: 0 },
  };
}

export interface Recorder {
  write(x: RecordedExchange): void;
  /** Resolves when everything written is on disk (a HAR file closed). */
  close(): Promise<void>;
}

/** A recorder to `path`: HAR for a `.har` name, NDJSON otherwise. Writes go out in call order, through one stream. */
export function recorder(path: string): Recorder {
  const out = createWriteStream(path);
  const har = /\.har$/i.test(path);
  let entries = 0;
  let failed: Error | undefined;
  out.on('error', (error) => {
    failed = error;
  });
  if (har) out.write('{"log":{"version":"1.2","creator":{"name":"messaging-conformance","version":"1"},"entries":[\n');
  return {
    write(x) {
      if (failed) return;
      out.write(har ? `${entries++ ? ',\n' : ''}${JSON.stringify(harEntry(x))}` : ndjsonLine(x));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (failed) return reject(failed);
        out.end(har ? '\n]}}\n' : '', () => (failed ? reject(failed) : resolve()));
      }),
  };
}
