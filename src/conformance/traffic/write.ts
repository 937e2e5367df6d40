// Writing exchanges: NDJSON (one exchange per line, the shape `traffic` reads) or HAR 1.2 for a `.har` name, streamed
// as they come, so a long recording holds no more than what the disk has not yet taken. The recorders write what they
// are given: the caller redacts first (ground/redaction.ts `redactExchange`).
import { createWriteStream } from 'node:fs';
import conformancePackage from '../package.json' with { type: 'json' };
import type { RecordedExchange } from '../ground/model.ts';

const ndjsonLine = ({ at, request: r, response: a, error, reset }: RecordedExchange) =>
  `${JSON.stringify({
    startedAt: new Date(at).toISOString(),
    // Fields picked one by one: what the caller hands over may carry more (an AbortSignal on a request).
    request: { method: r.method, url: r.url, headers: r.headers, body: r.body },
    response: a ? { status: a.status, headers: a.headers, body: a.body } : null,
    ...(error ? { error } : {}),
    ...(reset ? { reset: true } : {}),
  })}\n`;

const nameValues = (pairs: Iterable<[string, string]>) => Array.from(pairs, ([name, value]) => ({ name, value }));
const mime = (h: Record<string, string>) => h['content-type'] ?? '';

/** One exchange as a HAR 1.2 entry. The recorder measures no timings: those it cannot know are -1, the rest 0. */
function harEntry({ at, request: r, response: a, error, reset }: RecordedExchange) {
  const size = a && Buffer.byteLength(a.body);
  return {
    startedDateTime: new Date(at).toISOString(),
    time: 0,
    request: {
      method: r.method,
      url: r.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(Object.entries(r.headers)),
      queryString: URL.canParse(r.url) ? nameValues(new URL(r.url).searchParams) : [],
      ...(r.body === undefined ? {} : { postData: { mimeType: mime(r.headers), text: r.body } }),
      headersSize: -1,
      bodySize: r.body === undefined ? 0 : Buffer.byteLength(r.body),
    },
    // HAR has no "no answer": browsers write status 0 (Chrome says why in `_error`), and the readers take it so.
    response: {
      status: a?.status ?? 0,
      statusText: '',
      httpVersion: a ? 'HTTP/1.1' : '',
      cookies: [],
      headers: nameValues(Object.entries(a?.headers ?? {})),
      content: a ? { size, mimeType: mime(a.headers), text: a.body } : { size: 0, mimeType: '' },
      redirectURL: '',
      headersSize: -1,
      bodySize: size ?? -1,
      ...(!a && error ? { _error: error } : {}),
    },
    ...(reset ? { _reset: true } : {}), // the suite's reset hook: the rules over time start again
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 },
  };
}

/**
 * A recorder to `path`, one stream, so writes from many async callers (a proxy's requests) go out whole and in call
 * order; a HAR's head is written at once, each entry as it comes and the tail at `close`, which resolves when all that
 * was written is on disk. A file that cannot be written stops the writing; `close` says why. `write` after it throws.
 */
export function recorder(path: string) {
  const out = createWriteStream(path);
  const har = /\.har$/i.test(path);
  let entries = 0;
  let failed: Error | undefined;
  let closed: Promise<void> | undefined;
  out.on('error', (error) => (failed ??= error));
  if (har) {
    const creator = { name: 'messaging-conformance', version: conformancePackage.version };
    out.write(`{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[\n`);
  }
  return {
    write(x: RecordedExchange) {
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
