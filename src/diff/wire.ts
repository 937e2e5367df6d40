// Who reads each place of the document on the wire. A request body and its parameters are read by
// the service (a tightening breaks callers); a response by clients; a webhook's payload by the
// customer's receiver, as a response is read by a client; the receiver's answer to a webhook by
// the service, as a request is. api-smart-diff knows the polarity of requests and responses but
// does not model webhooks (it reports them as unclassified JSON, and a schema they use only under
// components/, judged as a request's). The wire view gives it what it knows: each webhook operation
// becomes a path whose response is the payload and, per answer status, a path whose request is the
// receiver's answer. Their places are mapped back to the webhook's own pointers.
import { deref } from '../core/document.ts';
import { httpMethods } from '../core/examples.ts';
import { escapePointer } from '../core/pointers.ts';

type Doc = Record<string, any>;
export type Path = Array<string | number>;

/** Path keys of the wire view that stand for a webhook: not paths of the service (those start with "/"). */
const payloadKey = (webhook: string) => `webhook ${webhook}`;
const answerKey = (webhook: string, status: string) => `webhook ${webhook} answer ${status}`;
const synthetic = /^webhook (.+?)(?: answer (\S+))?$/;

const methods: readonly string[] = httpMethods;

/** The document as api-smart-diff should judge it: webhooks as paths with the receiver's polarity. */
export function wireView(doc: Doc): Doc {
  const { webhooks, ...rest } = structuredClone(doc);
  const paths: Doc = { ...(rest.paths ?? {}) };
  for (const [name, item] of Object.entries<Doc>(webhooks ?? {})) {
    for (const [method, op] of Object.entries<Doc>(item ?? {})) {
      if (!methods.includes(method)) continue;
      // The service sends the payload and its header parameters: the receiver reads them as a response.
      const headers = Object.fromEntries(
        (op.parameters ?? [])
          .filter((p: Doc) => p?.in === 'header')
          .map((p: Doc) => [p.name, { required: p.required, schema: p.schema, description: p.description }]),
      );
      const { requestBody: _payload, responses: _answers, parameters: _parameters, ...rest } = op;
      paths[payloadKey(name)] = {
        ...paths[payloadKey(name)],
        // The operation's own keys (summary, description, deprecated, security, x-...) stay on the payload's path.
        [method]: {
          ...rest,
          responses: {
            payload: {
              description: op.requestBody?.description ?? '',
              ...(Object.keys(headers).length ? { headers } : {}),
              ...(op.requestBody?.content ? { content: op.requestBody.content } : {}),
            },
          },
        },
      };
      // The receiver answers; the service reads the answer as it reads a request.
      for (const [status, answer] of Object.entries<Doc>(op.responses ?? {}))
        paths[answerKey(name, status)] = {
          ...paths[answerKey(name, status)],
          [method]: {
            operationId: op.operationId,
            // The service reads the answer it documents: a body documented is a body required.
            ...(answer?.content ? { requestBody: { required: true, content: answer.content } } : {}),
            responses: {},
          },
        };
    }
  }
  return { ...rest, paths };
}

/** A place of the wire view, as a person names it and as the document points at it. */
export interface WirePlace {
  /** "callback messageStatus", "answer 200 to callback messageStatus", or undefined for a path of the service. */
  webhook?: string;
  /** The wire view's path turned back into the document's. */
  path: Path;
}

/** Maps a path of the wire view back to the document: a webhook's payload and answers to their own pointers. */
export function fromWire(path: Path): WirePlace {
  const m = path[0] === 'paths' && typeof path[1] === 'string' ? synthetic.exec(path[1]) : null;
  if (!m) return { path };
  const [, name, status] = m as unknown as [string, string, string | undefined];
  const [, , method, ...inner] = path;
  if (status === undefined) {
    // paths/<payload>/<method>/responses/payload/... -> webhooks/<name>/<method>/requestBody/...
    const rest = inner[0] === 'responses' && inner[1] === 'payload' ? inner.slice(2) : [];
    // A header the service sends is one of the webhook's parameters (the list is pointed at, not the entry).
    const body = rest[0] === 'headers' ? ['parameters'] : rest.length ? ['requestBody', ...rest] : [];
    return { webhook: `callback ${name}`, path: ['webhooks', name, ...(method ? [method] : []), ...body] };
  }
  // paths/<answer>/<method>/requestBody/... -> webhooks/<name>/<method>/responses/<status>/...
  const rest = inner[0] === 'requestBody' ? inner.slice(1) : [];
  return {
    webhook: `answer ${status} to callback ${name}`,
    path: ['webhooks', name, ...(method ? [method, 'responses', status, ...rest] : [])],
  };
}

/** Whether the wire view's path is a media type of a webhook's payload (the service picks which it sends). */
export const isPayloadMediaType = (path: Path) =>
  path.length === 7 &&
  path[0] === 'paths' &&
  typeof path[1] === 'string' &&
  synthetic.exec(path[1])?.[2] === undefined &&
  synthetic.test(path[1]) &&
  path[3] === 'responses' &&
  path[4] === 'payload' &&
  path[5] === 'content';

/** Whether the wire view's path is a webhook answer's, and whose payload path goes with it. */
export function answerOf(path: Path): string | undefined {
  const m = path[0] === 'paths' && typeof path[1] === 'string' ? synthetic.exec(path[1]) : null;
  return m?.[2] === undefined ? undefined : payloadKey(m[1]!);
}

export const toPointer = (path: Path) => `#/${path.map((s) => escapePointer(String(s))).join('/')}`;

/** One body on the wire: where it is, which schema it has, who reads it, and its examples. */
export interface Message {
  /** Matches the same message in another version: "request POST /api/x application/json". */
  key: string;
  /** "request body of closeThreads", "response 200 of closeThreads", "callback messageStatus". */
  where: string;
  /** The schema's JSON pointer in the document. */
  schema: string;
  /** The service reads requests and webhook answers; clients read responses, receivers webhook payloads. */
  reader: 'service' | 'client' | 'receiver';
  /** The named examples' values (and a lone `example`). */
  examples: Array<{ name: string; value: unknown }>;
}

/** The JSON bodies of the document's operations and webhooks. */
export function messages(doc: Doc): Message[] {
  const out: Message[] = [];
  const bodies = (
    content: Doc | undefined,
    pointer: string,
    make: (mediaType: string) => Omit<Message, 'schema' | 'examples' | 'key'> & { key: string },
  ) => {
    for (const [mediaType, media] of Object.entries<Doc>(content ?? {})) {
      if (!/json/i.test(mediaType) || !media?.schema) continue;
      const examples = [
        ...Object.entries<Doc>(media.examples ?? {})
          .filter(([, e]) => e && 'value' in e)
          .map(([name, e]) => ({ name, value: e.value })),
        ...('example' in media ? [{ name: 'example', value: media.example }] : []),
      ];
      out.push({ ...make(mediaType), schema: `${pointer}/content/${escapePointer(mediaType)}/schema`, examples });
    }
  };
  for (const [section, items] of [
    ['paths', doc.paths],
    ['webhooks', doc.webhooks],
  ] as const) {
    for (const [name, item] of Object.entries<Doc>(items ?? {})) {
      for (const [method, op] of Object.entries<Doc>(item ?? {})) {
        if (!methods.includes(method)) continue;
        const opPointer = `#/${section}/${escapePointer(name)}/${method}`;
        const label = op.operationId ?? `${method.toUpperCase()} ${name}`;
        const hook = section === 'webhooks';
        bodies(op.requestBody?.content, `${opPointer}/requestBody`, (mt) => ({
          key: `${section} request ${method} ${name} ${mt}`,
          where: hook ? `callback ${name}` : `request body of ${label}`,
          reader: hook ? 'receiver' : 'service',
        }));
        for (const [status, raw] of Object.entries<Doc>(op.responses ?? {})) {
          // A shared response (components/responses) is validated where it is written.
          const pointer = typeof raw?.$ref === 'string' ? raw.$ref : `${opPointer}/responses/${escapePointer(status)}`;
          bodies(deref(raw, doc)?.content, pointer, (mt) => ({
            key: `${section} response ${method} ${name} ${status} ${mt}`,
            where: hook ? `answer ${status} to callback ${name}` : `response ${status} of ${label}`,
            reader: hook ? 'service' : 'client',
          }));
        }
      }
    }
  }
  return out;
}
