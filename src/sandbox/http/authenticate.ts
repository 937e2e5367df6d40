// Authentication as the document's security schemes describe it: where each scheme's credential
// is sent (an apiKey in a header, query or cookie; an http bearer token) is read from the scheme,
// and the secrets it is checked against come from a table keyed by scheme name.
import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Operation } from '../../core/examples.ts';
import { securitySchemes, type SchemeName } from '../../core/meta.ts';
import { problem, Refusal } from '../reply.ts';

type SchemeDefinition = { type: string; in?: string; name?: string; scheme?: string };

const sha256 = (s: string) => hash('sha256', s, 'buffer');
const secretDigests = new Map<string, Buffer>();
/** The fixtures' secrets are hashed once; a given value is always hashed, so timing says nothing about it. */
const secretDigest = (secret: string) =>
  secretDigests.get(secret) ?? secretDigests.set(secret, sha256(secret)).get(secret)!;

/** The matching secret, compared in constant time against every candidate. */
function findSecret(given: string | undefined, secrets: Iterable<string>): string | undefined {
  if (!given) return undefined;
  const g = sha256(given);
  let found: string | undefined;
  for (const secret of secrets) if (timingSafeEqual(g, secretDigest(secret)) && found === undefined) found = secret;
  return found;
}

const bearerToken = /^Bearer\s+(.+)$/i;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The credential a request carries for a scheme, from where the scheme says it is sent. */
function credentialOf(req: IncomingMessage, scheme: SchemeDefinition): string | undefined {
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer')
    return bearerToken.exec(req.headers.authorization ?? '')?.[1];
  if (scheme.type !== 'apiKey' || !scheme.name) return undefined;
  if (scheme.in === 'header') return first(req.headers[scheme.name.toLowerCase()]);
  if (scheme.in === 'query')
    return new URL(req.url ?? '/', 'http://sandbox').searchParams.get(scheme.name) ?? undefined;
  if (scheme.in === 'cookie') {
    for (const pair of (req.headers.cookie ?? '').split(';')) {
      const at = pair.indexOf('=');
      if (at > 0 && pair.slice(0, at).trim() === scheme.name) return pair.slice(at + 1).trim();
    }
  }
  return undefined;
}

/** What each scheme's credential is called in a 401's detail. */
const credentialName = (name: SchemeName, scheme: SchemeDefinition) =>
  scheme.type === 'apiKey' ? 'The API key' : `The ${name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`;

/** The secret each of the operation's schemes matched; a Refusal (401 auth-error) when one does not. */
export function authenticate(
  req: IncomingMessage,
  op: Operation,
  secrets: Record<SchemeName, () => Iterable<string>>,
): Partial<Record<SchemeName, string>> {
  const matched: Partial<Record<SchemeName, string>> = {};
  for (const name of op.security as SchemeName[]) {
    const scheme = securitySchemes[name] as SchemeDefinition;
    const secret = findSecret(credentialOf(req, scheme), secrets[name]());
    if (!secret)
      throw new Refusal(problem(401, 'auth-error', `${credentialName(name, scheme)} is missing, wrong or expired.`));
    matched[name] = secret;
  }
  return matched;
}
