// Writing an answer: JSON with its length; nothing once the response is gone.
import type { ServerResponse } from 'node:http';
import type { Reply } from '../reply.ts';
import { toJson } from './json.ts';

export function writeReply(res: ServerResponse, reply: Reply, headers?: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  const text = toJson(reply.body);
  const head = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  res.writeHead(reply.status, headers ? { ...head, ...headers } : head);
  res.end(text);
}
