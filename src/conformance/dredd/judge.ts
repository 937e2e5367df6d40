// Judging the answers Dredd's transactions got, here and not by Dredd: each is a case of the
// suite's own checks (checks.ts), as every other stage's answers are.
import { judge } from '../checks.ts';
import type { Fault } from '../case.ts';
import { parseAnswer, type HttpRequest } from '../transport.ts';
import type { Step } from './plan.ts';

/** What the hooks saw of one transaction's answer. */
export interface RecordedAnswer {
  status: number;
  contentType: string;
  body: string | null;
}

/** A body as JSON, or undefined. */
export function parsed(text: string | null): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

/** One transaction's answer, judged by the registry of checks as the case its step stands for. */
export function judgeTransaction(step: Step, request: HttpRequest, real: RecordedAnswer): Fault[] {
  const expectation = {
    allowed: [{ status: step.status, ...(step.title ? { code: step.title } : {}) }],
    kind: step.kind,
    basis: step.basis,
  };
  return judge(
    { operation: step.operation, request, expectation },
    parseAnswer(real.status, real.contentType, real.body ?? ''),
  );
}
