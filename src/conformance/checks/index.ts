// The registry: every check of the suite, by what it judges, in the order their causes are reported (a root cause
// first). The suite's own requests, recorded traffic and the proxy are judged by these and no others: a new check is
// one entry in one of these files.
//   the run      run-checks.ts   the server answers, the credentials are accepted, the answers are the service's
//   a request    request.ts      the caller's side: what the document refuses in a request
//   an answer    answer.ts       the service's side: what the document does not allow as the answer to a request
//   a callback   callback.ts     a status callback's payload (the service's side) and its receiver's answer (the caller's)
//   a sequence   sequence.ts     the rules over time, over exchanges in time order
import { checks as answerChecks } from './answer.ts';
import { callbackChecks } from './callback.ts';
import { requestChecks } from './request.ts';
import { sequenceChecks } from './over-time.ts';

export type Judges = 'run' | 'request' | 'answer' | 'callback' | 'sequence';

export interface Entry {
  id: string;
  holds: string;
  judges: Judges;
  /** Whose break its fault is: the service's, or the caller's (the app sending requests, or receiving callbacks). */
  side: 'service' | 'caller';
}

/** The checks of the run (run-checks.ts, and a request that got no answer at all): before any answer is judged. */
const runChecks: Entry[] = [{ id: 'network', holds: 'a request gets an answer', judges: 'run', side: 'service' }];

export const registry: Entry[] = [
  ...runChecks,
  ...requestChecks.map((c) => ({ id: c.id, holds: c.holds, judges: 'request' as const, side: 'caller' as const })),
  ...answerChecks.map((c) => ({ id: c.id, holds: c.holds, judges: 'answer' as const, side: 'service' as const })),
  ...callbackChecks.map((c) => ({ id: c.id, holds: c.holds, judges: 'callback' as const, side: c.side })),
  ...sequenceChecks.map((c) => ({ id: c.id, holds: c.holds, judges: 'sequence' as const, side: 'service' as const })),
];

/** The order of causes: a check's place in the registry; a failure no check judged (a stage's own) last. */
export const causeOrder = (check: string) => {
  const at = registry.findIndex((c) => c.id === check);
  return at < 0 ? registry.length : at;
};
