// Writing exchanges: NDJSON (one exchange per line, the shape `traffic` reads) or HAR 1.2 for a `.har` name, streamed
// as they come, so a long recording holds no more than what the disk has not yet taken. The recorders write what they
// are given: the caller redacts first (ground/redaction.ts `redactExchange`).
import { createWriteStream } from 'node:fs';
import conformancePackage from '../package.json' with { type: 'json' };
import type { RecordedExchange } from '../ground/model.ts';

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
    ...(x.reset ? { reset: true } : {}),
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
    ...(x.reset ? { _reset: true } : {}), // the suite's reset hook: the rules over time start again
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
