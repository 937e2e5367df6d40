// A failed check's request as a person replays it: a curl command (credentials as the environment variables that hold
// them) and one line to read.
import { apiKeyHeader } from '../../core/meta.ts';
import { clip, type Credentials, type HttpRequest as PairRequest } from './model.ts';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The request as a curl command, each credential as its variable (`"$MESSAGING_API_KEY"`), never its value. */
export const replay = (credentials: Credentials, r: PairRequest): string =>
  curl(r, [
    [credentials.apiKeyNoBalance, '$MESSAGING_API_KEY_NO_BALANCE'],
    [credentials.apiKey, '$MESSAGING_API_KEY'],
    [credentials.integratorToken, '$MESSAGING_INTEGRATOR_TOKEN'],
  ]);

/** The request as a curl command, each of `refs`' values written as the environment variable it names. */
export function curl(r: PairRequest, refs: Array<[string | undefined, string]>): string {
  const header = ([name, value]: [string, string]) => {
    const secret = refs.find(([v]) => v && value.includes(v));
    return secret
      ? `-H "${name}: ${value.split(secret[0]!).join(secret[1])}"`
      : `-H ${shellQuote(`${name}: ${value}`)}`;
  };
  // Whole: a replay cut short sends another request (the suite's bodies are bounded by the document's limits).
  const body = r.body === undefined ? '' : ` --data-raw ${shellQuote(r.body)}`;
  return `curl -sS -X ${r.method} ${shellQuote(r.url)} ${Object.entries(r.headers).map(header).join(' ')}${body}`;
}

/** One line per request, as a person would write it with curl. */
export function describeRequest(r: PairRequest): string {
  const headers = Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${k === apiKeyHeader || k === 'authorization' ? '<redacted>' : v}`)
    .join(', ');
  const body = r.body === undefined ? '' : ` ${clip(r.body, 300)}`;
  return `${r.method} ${r.url} [${headers}]${body}`;
}
