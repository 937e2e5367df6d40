// Judging the answers Dredd's transactions got, here and not by Dredd: status, content type, the
// body against its schema (JSON Schema 2020-12, which Dredd's validator predates) and the title.
import { validator } from '../../core/validators/all.ts';
import { contentTypeFaults, titleFaults } from '../pairs.ts';
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
  const faults: string[] = [];
  faults.push(...contentTypeFaults(real.contentType));
  const body = parsed(real.body);
  if (body === undefined) faults.push(`body is not JSON: ${String(real.body).slice(0, 120)}`);
  else {
    faults.push(...validator(step.schemaPointer)(body).errors, ...titleFaults(body, step.title));
  }
  if (real.status !== step.status) faults.push(`status ${real.status}, expected ${step.status}`);
  return faults;
}
