// Reading a request's JSON body: content type and charset, a size limit checked while reading,
// UTF-8, nesting depth, JSON, int64 identifiers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { problem, Refusal, type Reply } from '../reply.ts';
import { exactIntegers, findValue, isRounded, jsonDepth, maxJsonDepth, outsideInt64, pathText } from './json.ts';
import { writeReply } from './write-reply.ts';

class BodyTooLarge extends Error {}

/** The body, refused as soon as it passes `limit` (declared or counted while reading). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (declared > limit) return reject(new BodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(new BodyTooLarge());
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    // Most bodies come in one chunk: no copy.
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Answers 413 while the client is still sending, then reads the rest into nothing, so that a
 * client that writes its whole body before reading gets the answer (closing at once loses it to
 * EPIPE or a reset in the client). The connection then stays usable: closing it after the body
 * would race a client that reuses it for its next request. A client that sends more than 4x the
 * limit is cut off.
 */
export function refuseBody(req: IncomingMessage, res: ServerResponse, reply: Reply, limit: number): void {
  writeReply(res, reply);
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > 4 * limit) req.socket.destroy();
  });
  req.resume();
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const jsonContentType = /^application\/json\s*(;|$)/i;
const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]+)/i;
const utf8Charset = /^utf-?8$/i;

export interface JsonBody {
  body: unknown;
  /**
   * The same body with int64 identifiers past 2^53 as BigInts of the digits sent (the body itself when it has none).
   */
  exact: unknown;
}

/** The request's JSON body, or a Refusal that says what is wrong with it. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<JsonBody> {
  const type = req.headers['content-type'] ?? '';
  if (type !== 'application/json') {
    if (!jsonContentType.test(type)) {
      throw new Refusal(
        problem(
          500,
          'system-error',
          `The request is malformed: Content-Type is ${JSON.stringify(type)}; expected application/json.`,
        ),
      );
    }
    const charset = charsetParameter.exec(type)?.[1];
    if (charset !== undefined && !utf8Charset.test(charset)) {
      throw new Refusal(
        problem(
          400,
          'body-is-not-utf-8',
          `The request body must be UTF-8 (JSON's encoding); Content-Type says charset=${charset}.`,
        ),
      );
    }
  }
  let bytes: Buffer;
  try {
    bytes = await readBody(req, limit);
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    throw new Refusal(
      problem(413, 'payload-too-large', `The request body is larger than the sandbox's limit of ${limit} bytes.`),
      undefined,
      limit,
    );
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new Refusal(
      problem(
        400,
        'body-is-not-utf-8',
        'The request body is not valid UTF-8 (JSON must be UTF-8); it was not read as any other encoding.',
      ),
    );
  }
  if (jsonDepth(text) > maxJsonDepth) {
    throw new Refusal(
      problem(
        500,
        'system-error',
        `The request is malformed: it nests arrays and objects deeper than ${maxJsonDepth} levels.`,
      ),
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new Refusal(problem(500, 'system-error', `The request body is not valid JSON: ${(error as Error).message}`));
  }
  // Identifiers are int64: the digits sent are kept past 2^53 (the rules see them as BigInts and
  // the answer writes them as sent); an integer outside int64 is no identifier, a malformed request.
  if (!findValue(body, isRounded)) return { body, exact: body };
  const exact = exactIntegers(text);
  const outside = findValue(exact, outsideInt64);
  if (outside)
    throw new Refusal(
      problem(
        500,
        'system-error',
        `The request is malformed: ${pathText(outside)} is an integer outside int64 (-2^63 to 2^63 - 1).`,
      ),
    );
  return { body, exact };
}
