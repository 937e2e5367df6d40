// A recorded exchange: a request and the answer it got, as a log, a HAR file or the proxy saw it. The traffic readers
// make these, the recorders write them, and the judge (judge.ts) reads them in time order. A leaf module.
import { maxAnswerBytes, type HttpRequest } from '../ground/transport.ts';

/** What one exchange's answer was, as recorded: its body as text (decoded: no content coding, no base64). */
export interface RecordedAnswer {
  status: number;
  /** Header names in lower case; several of one name joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

export interface RecordedExchange {
  /** When the request started, epoch milliseconds. */
  at: number;
  /** Header names in lower case; the body as text, undefined when there was none. */
  request: HttpRequest;
  /** Undefined when the log holds no answer (the connection failed, or the recorder saw none). */
  response: RecordedAnswer | undefined;
  /**
   * Why no answer came, where the recorder knows (`socket hang up`; a browser's `net::ERR_EMPTY_RESPONSE`): the
   * service's fault, unless it says the caller gave up (aborted, cancelled, blocked).
   */
  error?: string;
  /** Where it came from, as a person finds it again: `traffic.ndjson line 17`, `run.har entry 4`, `proxy #12`. */
  source: string;
}

/** A file that cannot be read as traffic: where (line or entry), and what is wrong there. Exit 2. */
export class TrafficError extends Error {}

/**
 * The most of one exchange a reader holds (a line of NDJSON, an entry of a HAR file): as much as one answer the suite
 * reads (16 MiB) for each side, and room for the rest.
 */
export const maxExchangeBytes = 2 * maxAnswerBytes + 8 * 1024 * 1024;
