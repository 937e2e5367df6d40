// The suite's HTTP: one request and its whole answer, over node:http(s). Not fetch: Node 20's fetch
// costs about four times the CPU per request, and a run sends thousands.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createGunzip, createInflate } from 'node:zlib';
import { openapi } from '../../core/document.ts';
import { maxAnswerBytes, type Answer, type HttpRequest } from './model.ts';

export { maxAnswerBytes, type Answer, type HttpRequest } from './model.ts';

/** An answer as the checks read it: its text, and the JSON it holds. */
export function parseAnswer(
  status: number,
  contentType: string,
  text: string,
  headers: Record<string, string> = { 'content-type': contentType },
): Answer {
  try {
    return { status, contentType, text, body: text === '' ? undefined : JSON.parse(text), json: true, headers };
  } catch {
    return { status, contentType, text, body: undefined, json: false, headers };
  }
}

export interface Exchange extends HttpRequest {
  /** Ends the exchange, answer included, with the signal's reason. */
  signal: AbortSignal;
  /** Called when the status line has come, before the body. */
  onAnswer?: () => void;
  /** Only the status line and headers are wanted: the exchange ends when they come, the body unread. */
  statusOnly?: boolean;
}

/** The suite's (and Dredd's) default request headers: any media type, the codings both decode, and who asks. */
export const clientHeaders: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate',
  'user-agent': `messaging-conformance (contract ${(openapi.info as { version: string }).version})`,
};
export class AnswerTooLarge extends Error {
  constructor() {
    super(`the answer is over ${maxAnswerBytes / 1024 / 1024} MiB; the suite read no further`);
  }
}

async function readText(res: IncomingMessage): Promise<string> {
  const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  // The codings `accept-encoding` names, as Dredd's client decodes them too: any other is read as it comes.
  const decoder = coding === 'gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : undefined;
  // Reading ends with an error when the connection breaks before the answer does (the decoder's too).
  if (decoder) res.on('error', (error) => decoder.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of decoder ? res.pipe(decoder) : res) {
    size += (chunk as Buffer).length;
    if (size > maxAnswerBytes) throw new AnswerTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends a request and reads its whole answer; rejects when the network fails or the signal fires first. */
export function exchange(x: Exchange): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (x.signal.aborted) return reject(x.signal.reason);
    const url = new URL(x.url);
    const length = x.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(x.body)) };
    const headers = { ...clientHeaders, ...x.headers, ...length };
    let req: ReturnType<typeof httpRequest>;
    const abort = () => req.destroy(x.signal.reason);
    const fail = (error: unknown) => {
      x.signal.removeEventListener('abort', abort);
      reject(error);
    };
    try {
      req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: x.method, headers }, (res) => {
        x.onAnswer?.();
        const got = Object.fromEntries(
          Object.entries(res.headers).map(([name, v]) => [name, Array.isArray(v) ? v.join(', ') : String(v)]),
        );
        const done = (text: string) => {
          x.signal.removeEventListener('abort', abort);
          resolve(parseAnswer(res.statusCode ?? 0, res.headers['content-type'] ?? '', text, got));
        };
        if (x.statusOnly) {
          done('');
          return void req.destroy();
        }
        readText(res).then(done, (error) => {
          req.destroy(); // the connection, with whatever of the answer is still to come
          fail(error);
        });
      });
    } catch (error) {
      // A header value HTTP cannot carry, an unknown method: nothing was sent.
      return reject(error);
    }
    x.signal.addEventListener('abort', abort, { once: true });
    req.on('error', fail);
    req.end(x.body);
  });
}
