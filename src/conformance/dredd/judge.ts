// Judging the answers Dredd's transactions got, here and not by Dredd: status, content type, the
// body against its schema (JSON Schema 2020-12, which Dredd's validator predates) and the title.
import { validator } from '../../core/validators/all.ts';
import { contentTypeProblems, titleProblems } from '../pairs.ts';
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

/** One transaction's answer, judged here: status, content type, body against its schema, title. */
export function judge(step: Step, real: RecordedAnswer): string[] {
  const problems: string[] = [];
  problems.push(...contentTypeProblems(real.contentType));
  const body = parsed(real.body);
  if (body === undefined) problems.push(`body is not JSON: ${String(real.body).slice(0, 120)}`);
  else {
    problems.push(...validator(step.schemaPointer)(body).errors, ...titleProblems(body, step.title));
  }
  if (real.status !== step.status) problems.push(`status ${real.status}, expected ${step.status}`);
  return problems;
}
