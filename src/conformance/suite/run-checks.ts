// The run's own checks before any stage (the server answers, each credential is accepted, the answers are the
// service's, not a proxy's page or a wrong base path) and its failures (unfinished, a stage stopped, a reset failed).
import { documentOperations, type ExamplePair } from '../../core/examples.ts';
import { probeExamples } from '../document/policy.ts';
import { report, verdict } from '../judge.ts';
import { clip, type CredentialName, type Profile, type SuiteReport } from '../ground/model.ts';
import { requestSignal, type SuiteContext } from './context.ts';
import { exchange, type Answer } from '../ground/transport.ts';
import { preparedRequest } from './vars.ts';

export class UnreachableError extends Error {}

/** Resolves when the server answers at all; rejects with UnreachableError (its message redacted) when it does not. */
export async function reachable(ctx: SuiteContext, redact: (text: string) => string): Promise<void> {
  try {
    // Any answer will do: its status line is enough (the body of a server's root may be a large page).
    await ctx.throttle.pace(ctx.deadlineAt); // a request of the run: at its pace
    const signal = requestSignal(ctx);
    await exchange({ method: 'GET', url: ctx.server, headers: {}, body: undefined, signal, statusOnly: true });
  } catch (error) {
    throw new UnreachableError(redact(`the server ${ctx.server} does not answer: ${(error as Error).message}`));
  }
}

/** The report of a run that could not start or go on, with the reason: the reports say why on every exit. */
export function failedRun(reason: string, profile: Profile = 'described'): SuiteReport {
  const failed = failedCheck('run', 'the run could not finish', 'the run to finish', reason);
  return report(profile, [failed], { finished: false, unfinished: reason });
}

/** A failed check about the run itself: it could not finish, a stage stopped, a reset failed. */
export const failedCheck = (stage: string, name: string, expected: string, failed: string, answer?: string) =>
  verdict({ stage, name, kind: 'described' }, { expected, failed, ...(answer ? { answer } : {}) }, 'described');

/**
 * The requests that tell whether each credential is accepted and the service answers where the run looks: each example
 * changing nothing (`x-request: {probe: true}`) with its operation's credential; no-balance key on the first apiKey's.
 */
export function probes(): Array<{ credential: CredentialName; pair: ExamplePair }> {
  const found = probeExamples().map((pair) => ({
    credential: (pair.operation.security.includes('apiKey') ? 'apiKey' : 'integratorToken') as CredentialName,
    pair,
  }));
  const withKey = found.find((p) => p.credential === 'apiKey');
  return withKey ? [...found, { credential: 'apiKeyNoBalance', pair: withKey.pair }] : found;
}

/** What the probes found: the credentials the server answers 401 to on a request that is otherwise right, and every answer. */
export async function probe(ctx: SuiteContext): Promise<{ rejected: CredentialName[]; answers: Answer[] }> {
  const { credentials } = ctx;
  const answers = await Promise.all(
    probes().map(async ({ credential, pair }) => {
      const value = credentials[credential];
      if (!value) return undefined;
      const apiKey = credential === 'apiKeyNoBalance' ? value : credentials.apiKey;
      const { request } = preparedRequest({ ...ctx, credentials: { ...credentials, apiKey } }, pair);
      const { answer } = await ctx.send(request);
      return answer ? { credential, answer } : undefined;
    }),
  );
  const got = answers.filter((a) => a !== undefined);
  return {
    rejected: [...new Set(got.filter((a) => a.answer.status === 401).map((a) => a.credential))],
    answers: got.map((a) => a.answer),
  };
}

/**
 * Why the probes' answers say the run is not looking at the service (all 404: a base path left out of
 * --server; none JSON: a proxy's or a sign-in page), or undefined. Hundreds of checks would say so again.
 */
export function misdirection(ctx: SuiteContext, answers: Answer[]): string | undefined {
  if (answers.length === 0) return undefined;
  if (answers.every((a) => a.status === 404))
    return `every operation answered 404 at ${ctx.server}: the server's base path is likely missing or wrong (--server is the URL the document's paths, such as ${documentOperations()[0]!.path}, start from)`;
  if (answers.every((a) => !/^application\/json/i.test(a.contentType)))
    return `no answer at ${ctx.server} was JSON (the first: ${answers[0]!.status} ${JSON.stringify(answers[0]!.contentType)} ${JSON.stringify(clip(answers[0]!.text, 60))}): something other than the service answers, such as a proxy's or a sign-in page`;
  return undefined;
}
