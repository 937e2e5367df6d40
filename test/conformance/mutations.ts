// The suite must fail against a server that breaks the contract in any one way: a proxy in front
// of an implementation breaks it one way at a time, and the whole suite (default profile, no reset
// hook) runs against a freshly started implementation for each. The breaks are written against
// the contract (paths, statuses, codes, the requests sent), never against one implementation's
// texts, so the same list runs against the sandbox and against the independent implementation.
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite, stages, suiteContext } from '../../src/conformance/suite/suite.ts';
import { generatedStage } from '../../src/conformance/stages/generated.ts';
import { causes, summary } from '../../src/conformance/report.ts';
import type { Credentials } from '../../src/conformance/document/pairs.ts';
import { resolvePointer } from '../../src/core/document.ts';
import { apiKeyHeader } from '../../src/core/meta.ts';
import { startMutatingProxy, type Exchange, type Mutation } from '../helpers/mutating-proxy.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProxy } from '../../src/conformance/traffic/proxy.ts';
import { judgeTraffic } from '../../src/conformance/traffic/run.ts';
import { trafficSummary } from '../../src/conformance/report.ts';

/** An implementation under test: a fresh one per start, and what the suite needs to reach it. */
export interface Implementation {
  name: string;
  start(): Promise<{ url: string; close(): Promise<void> }>;
  credentials: Credentials;
  values: Record<string, unknown>;
}

const isThreads = (x: { path: string }) => x.path === '/api/v1/threads/close';
const isSchedule = (x: { path: string }) => x.path === '/api/cascade/schedule';
const isCreate = (x: { path: string }) => x.path === '/api/subscribers/create';
const lists = [
  'resolved_threads',
  'not_existing_threads',
  'already_resolved_threads',
  'not_resolved_due_to_system_error',
];
const fieldCodes = /not-specified|too-long|not-valid$|button-validation|mm-api|template-parameter/;
const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const extUserId = (requestBody: string): string | undefined => {
  try {
    return (JSON.parse(requestBody) as { addresses?: Array<{ type?: string; address?: string }> }).addresses?.find(
      (a) => a?.type === 'EXT_USER_ID',
    )?.address;
  } catch {
    return undefined;
  }
};

const requestOf = (x: Exchange): any => {
  try {
    return JSON.parse(x.requestBody);
  } catch {
    return undefined;
  }
};
const refuse = (title: string) => ({ status: 400, body: { title, status: 400, detail: 'refused by the mutation' } });
const systemError = (detail: string) => ({ status: 500, body: { title: 'system-error', status: 500, detail } });
/** A success in place of the answer: the body each operation's success has. */
const accepted = (x: Exchange) => ({
  status: 200,
  contentType: 'application/json',
  body: isSchedule(x)
    ? { requestId: requestOf(x)?.requestId }
    : isThreads(x)
      ? {
          resolved_threads: [],
          not_existing_threads: [],
          already_resolved_threads: [],
          not_resolved_due_to_system_error: [],
        }
      : {},
});
/** Whether a request's DATE parameters hold a value that is no day written YYYY-MM-DD (their types all known). */
const badDates = (body: any) => {
  const values = Array.isArray(body?.parameterValues) ? body.parameterValues : [];
  const day = (v: unknown) =>
    typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
  return (
    values.every((p: any) => ['STRING', 'ENUM', 'DATE'].includes(p?.valueType)) &&
    values.some((p: any) => p?.valueType === 'DATE' && typeof p?.value === 'string' && !day(p.value))
  );
};
/** Not served at the document's path (a deployment that put the operation elsewhere). */
const notServed = (x: Exchange) => ({
  status: 404,
  body: { title: 'not-found', status: 404, detail: `nothing at ${x.path}` },
});
const schemaAt = (pointer: string) => resolvePointer(pointer) as any;
// Limits read from the document, as an implementation would hard-code them.
const commentMax: number = schemaAt('#/components/schemas/CloseThreadsRequest').properties.comment.maxLength;
const buttonsMax: number = schemaAt('#/components/schemas/KeyboardButtons').maxItems;
const payloadMax: number = schemaAt('#/components/schemas/KeyboardButton').properties.payload.maxLength;
const titleMax: number = schemaAt('#/components/schemas/ListPicker').properties.sections.items.properties.items.items
  .properties.title.maxLength;
/** The rows and buttons of a request, read as a lenient server would: a request of the wrong shape has none (a break must not crash the proxy). */
const rowsOf = (body: any): any[] => {
  const rows = body?.content?.whatsappContent?.keyboard?.rows;
  return Array.isArray(rows) ? rows : [];
};
const allButtons = (body: any): unknown[] =>
  rowsOf(body).flatMap((r: any) => (Array.isArray(r?.buttons) ? r.buttons : []));
const int32Max = 2 ** 31 - 1;

/**
 * Each break, made fresh for a run (some remember what they saw), and the stage that shows it when that is not the
 * first one (dredd): the run tries that stage first.
 */
export const mutations: Array<[string, () => Mutation, StageName?]> = [
  [
    'int64 thread ids written as strings',
    () => (x) =>
      isThreads(x) && x.status === 200
        ? {
            body: Object.fromEntries(
              Object.entries(x.body).map(([k, v]) => [k, lists.includes(k) && Array.isArray(v) ? v.map(String) : v]),
            ),
          }
        : undefined,
  ],
  [
    'a missing result list',
    () => (x) =>
      isThreads(x) && x.status === 200
        ? { body: { ...x.body, not_resolved_due_to_system_error: undefined } }
        : undefined,
  ],
  [
    'a thread reported in two lists',
    () => (x) =>
      isThreads(x) && x.status === 200
        ? {
            body: {
              ...x.body,
              not_existing_threads: [
                ...x.body.not_existing_threads,
                ...x.body.resolved_threads,
                ...x.body.already_resolved_threads,
              ],
            },
          }
        : undefined,
  ],
  [
    'a closed thread reported as resolved again',
    () => (x) =>
      isThreads(x) && x.status === 200
        ? {
            body: {
              ...x.body,
              resolved_threads: [...x.body.resolved_threads, ...x.body.already_resolved_threads],
              already_resolved_threads: [],
            },
          }
        : undefined,
    'stateful',
  ],
  [
    // A gateway that fills in a credential the request left out (the last one it saw): §5, §4.1's permission.
    'a request without credentials accepted',
    () => {
      const seen: Record<string, string> = {};
      return Object.assign(() => undefined, {
        request: (headers: Record<string, string>) => {
          const filled = { ...headers };
          for (const name of [apiKeyHeader, 'authorization'])
            if (headers[name]) seen[name] = headers[name];
            else if (seen[name]) filled[name] = seen[name];
          return filled;
        },
      });
    },
    'bad-input',
  ],
  [
    'a wrong title',
    () => (x) => (x.body?.title === 'auth-error' ? { body: { ...x.body, title: 'unauthorized' } } : undefined),
  ],
  ['a wrong status', () => (x) => (x.status === 401 ? { status: 403, body: { ...x.body, status: 403 } } : undefined)],
  [
    '200 for an invalid request',
    () => (x) =>
      isSchedule(x) && x.status === 400 && fieldCodes.test(x.body?.title)
        ? { status: 200, body: { requestId: '5b1c7a8e-3f2d-4c6b-9a0e-1d2f3a4b5c6d' } }
        : undefined,
  ],
  [
    // Section 8: "at most 24 characters each, spaces included"; this one counts them after trimming.
    'list item lengths counted without their spaces',
    () => (x) => {
      const items = (requestOf(x)?.content?.whatsappContent?.listPicker?.sections ?? []).flatMap?.((s: any) =>
        Array.isArray(s?.items) ? s.items : [],
      );
      const texts = (items ?? [])
        .flatMap((i: any) => [i?.title, i?.subtitle])
        .filter((t: unknown) => typeof t === 'string');
      const trimmedFits = texts.every((t: string) => [...t.trim()].length <= titleMax);
      return isSchedule(x) && x.body?.title === 'template-parameter-is-not-valid' && trimmedFits
        ? { status: 200, body: { requestId: requestOf(x)?.requestId } }
        : undefined;
    },
    'boundaries',
  ],
  [
    'a reused requestId accepted',
    () => (x) =>
      x.body?.title === 'requestId-is-not-unique'
        ? { status: 200, body: { requestId: JSON.parse(x.requestBody).requestId } }
        : undefined,
    'stateful',
  ],
  [
    'a problem without its status field',
    () => (x) => (x.status >= 400 ? { body: { title: x.body?.title, detail: x.body?.detail } } : undefined),
  ],
  ['a wrong content type', () => (x) => (x.status === 200 ? { contentType: 'text/plain' } : undefined)],
  [
    'a violation missing from detail',
    () => (x) =>
      typeof x.body?.detail === 'string' && x.body.detail.includes('Violations:')
        ? { body: { ...x.body, detail: x.body.detail.replace(/;[^;[]*\[[^\]]*\]$/, '') } }
        : undefined,
    'examples',
  ],
  [
    // Section 7.2: "a `Violations:` list, separated by semicolons"; here two violations read as one.
    'violations joined without their separator',
    () => (x) =>
      typeof x.body?.detail === 'string' && x.body.detail.includes('Violations:')
        ? { body: { ...x.body, detail: x.body.detail.replace(/\]; /g, '] ') } }
        : undefined,
    'examples',
  ],
  [
    // A parser with a small limit of its own: a valid subscriber with many parameters refused as malformed.
    'a subscriber with many parameter values refused',
    () => (x) =>
      x.path === '/api/subscribers/create' && (requestOf(x)?.parameterValues?.length ?? 0) > 64
        ? systemError('nested too deep')
        : undefined,
    'boundaries',
  ],
  [
    // Section 7.1: `title` is the error code; here an unknown path gets none.
    'an empty title for an unknown path',
    () => (x) => (x.status === 404 ? { body: { ...x.body, title: '' } } : undefined),
  ],
  [
    'a 500 for a request past a limit that has a code',
    () => (x) =>
      x.status === 400 && fieldCodes.test(x.body?.title)
        ? { status: 500, body: { title: 'system-error', status: 500 } }
        : undefined,
  ],
  [
    '404 answered with an HTML page',
    () => (x) =>
      x.status === 404 ? { status: 200, contentType: 'text/html', body: '<html>Not here</html>' } : undefined,
  ],
  [
    '405 answered as 404',
    () => (x) => (x.status === 405 ? { status: 404, body: { title: 'not-found', status: 404 } } : undefined),
  ],
  [
    'the connection dropped on malformed JSON',
    () => (x) => (x.path.startsWith('/api/') && x.method === 'POST' && !isJson(x.requestBody) ? 'drop' : undefined),
  ],
  [
    'a second subscriber with the same external identifier accepted',
    () => {
      const created = new Set<string>();
      return (x) => {
        if (x.path !== '/api/subscribers/create') return undefined;
        const id = extUserId(x.requestBody);
        if (id === undefined) return undefined;
        if (x.status === 200) created.add(id);
        else if (created.has(id)) return { status: 200, body: {} };
        return undefined;
      };
    },
    'stateful',
  ],
  [
    'the validation code renamed',
    () => (x) =>
      /^cascade-scheduling-request-(is-)?not-valid$/.test(x.body?.title ?? '')
        ? { body: { ...x.body, title: 'cascade-request-invalid' } }
        : undefined,
    'examples',
  ],
  // Breadth: realistic bugs outside the examples, one of each class.
  [
    'limit off by one: a comment at the limit refused',
    () => (x) =>
      isThreads(x) && [...(requestOf(x)?.comment ?? '')].length >= commentMax
        ? refuse('comment-is-too-long')
        : undefined,
    'boundaries',
  ],
  // Not here: a length counted in UTF-16 units. The description never says what a character is, so that is another
  // legal answer (the open point `characters`, a variant of test/independent); a count in bytes is no answer.
  [
    'limit counted in bytes: a Cyrillic comment at the limit refused',
    () => (x) =>
      isThreads(x) && Buffer.byteLength(requestOf(x)?.comment ?? '') > commentMax
        ? refuse('comment-is-too-long')
        : undefined,
    'boundaries',
  ],
  [
    'limit off by one: as many buttons as allowed refused',
    () => (x) =>
      isSchedule(x) && allButtons(requestOf(x)).length >= buttonsMax ? refuse('button-validation-error') : undefined,
    'boundaries',
  ],
  [
    'limit counted in bytes: a Cyrillic payload at the limit refused',
    () => (x) =>
      isSchedule(x) &&
      allButtons(requestOf(x)).some((b: any) => Buffer.byteLength(String(b?.payload ?? '')) > payloadMax)
        ? refuse('button-validation-error')
        : undefined,
    'boundaries',
  ],
  [
    'limit held per row: too many buttons spread across rows accepted',
    () => (x) => {
      const rows = rowsOf(requestOf(x));
      const eachRowKeeps = rows.every((r) => (r?.buttons?.length ?? 0) <= buttonsMax);
      const tooMany = allButtons(requestOf(x)).length > buttonsMax;
      return isSchedule(x) && x.body?.title === 'button-validation-error' && tooMany && eachRowKeeps
        ? { status: 200, body: { requestId: requestOf(x)?.requestId } }
        : undefined;
    },
    'boundaries',
  ],
  // Not here: a second EXT_USER_ID accepted. Refusing it is a decision of this contract (the
  // description names one such address and states no limit), so the default profile this test
  // runs allows either answer; --profile strict checks it.
  [
    'limit off by one: a latitude at the pole refused',
    () => (x) =>
      isSchedule(x) && Math.abs(requestOf(x)?.content?.whatsappContent?.location?.latitude ?? 0) >= 90
        ? refuse('latitude-not-specified')
        : undefined,
    'boundaries',
  ],
  [
    'int32 ids: a thread id past 2^31 answered 500',
    () => (x) =>
      isThreads(x) && (requestOf(x)?.threadIds ?? []).some((id: unknown) => typeof id === 'number' && id > int32Max)
        ? { status: 500, body: { title: 'system-error', status: 500 } }
        : undefined,
    'boundaries',
  ],
  [
    'int32 ids: a cascade id past 2^31 answered 500',
    () => (x) =>
      isSchedule(x) && requestOf(x)?.cascadeId > int32Max
        ? { status: 500, body: { title: 'system-error', status: 500 } }
        : undefined,
    'boundaries',
  ],
  [
    'non-ASCII message text answered 500',
    () => (x) =>
      isSchedule(x) && /[^\x00-\x7f]/.test(JSON.stringify(requestOf(x)?.content ?? ''))
        ? { status: 500, body: { title: 'system-error', status: 500 } }
        : undefined,
    'boundaries',
  ],
  [
    'a startTime with a numeric offset refused',
    () => (x) =>
      isSchedule(x) && /[+-]\d\d:\d\d$/.test(requestOf(x)?.startTime ?? '')
        ? refuse('cascade-scheduling-request-not-valid')
        : undefined,
    'boundaries',
  ],
  [
    'an upper-case UUID requestId refused',
    () => (x) =>
      isSchedule(x) && /[A-F]/.test(requestOf(x)?.requestId ?? '')
        ? refuse('cascade-scheduling-request-not-valid')
        : undefined,
    'boundaries',
  ],
  [
    'the balance checked only on the first message of a key',
    () => {
      const refused = new Set<string>();
      return (x) => {
        if (x.body?.title !== 'out-of-balance') return undefined;
        const key = x.requestHeaders[apiKeyHeader.toLowerCase()] ?? '';
        if (!refused.has(key)) {
          refused.add(key);
          return undefined;
        }
        return { status: 200, body: { requestId: requestOf(x)?.requestId } };
      };
    },
    'stateful',
  ],
  [
    'a requestId forgotten after other requests',
    () => {
      const seen: string[] = [];
      return (x) => {
        if (!isSchedule(x)) return undefined;
        const id = requestOf(x)?.requestId;
        if (x.status === 200) seen.push(id);
        // Only the last two requestIds are remembered: an older one sent again is accepted.
        else if (x.body?.title === 'requestId-is-not-unique' && seen.includes(id) && seen.indexOf(id) < seen.length - 2)
          return { status: 200, body: { requestId: id } };
        return undefined;
      };
    },
    'stateful',
  ],
  [
    'an out-of-balance account accepted',
    () => (x) =>
      x.body?.title === 'out-of-balance'
        ? { status: 200, body: { requestId: JSON.parse(x.requestBody).requestId } }
        : undefined,
    'stateful',
  ],
  [
    'application/json read only as written so (a charset or another case refused)',
    () => (x) => {
      const type = x.requestHeaders['content-type'];
      return x.path.startsWith('/api/') && type !== undefined && type !== 'application/json' && /json/i.test(type)
        ? {
            status: 500,
            body: { title: 'system-error', status: 500, detail: `Content-Type ${type} is not application/json.` },
          }
        : undefined;
    },
    'bad-input',
  ],
  [
    'a limit inside a list read at one-digit positions only (a list-picker title over 24 characters at position 11 answered 500)',
    () => (x) => {
      const sections: any[] = requestOf(x)?.content?.whatsappContent?.listPicker?.sections;
      const far = (Array.isArray(sections) ? sections : []).some((section, i) =>
        (Array.isArray(section?.items) ? section.items : []).some(
          (item: any, j: number) => (i >= 10 || j >= 10) && [...String(item?.title ?? '')].length > titleMax,
        ),
      );
      return isSchedule(x) && far ? systemError('the title was not checked at this position') : undefined;
    },
    'boundaries',
  ],
  [
    'a text full of [ and { refused (a nesting depth counted inside strings)',
    () => (x) => {
      let depth = 0;
      let deepest = 0;
      for (const c of x.requestBody) {
        depth += c === '[' || c === '{' ? 1 : c === ']' || c === '}' ? -1 : 0;
        deepest = Math.max(deepest, depth);
      }
      return x.path.startsWith('/api/') && deepest > 32 ? refuse('system-error') : undefined;
    },
    'boundaries',
  ],
  [
    'a negative id past -2^53 answered 500 (read as a double)',
    () => (x) =>
      isThreads(x) && /-900719925474099[3-9]/.test(x.requestBody) ? systemError('not a safe integer') : undefined,
    'boundaries',
  ],
  [
    'a schedule whose content is missing for a cascade stage accepted',
    () => (x) =>
      isSchedule(x) && x.body?.title === 'request-doesn’t-contain-content-for-all-cascade-stages'
        ? { status: 200, body: { requestId: requestOf(x)?.requestId } }
        : undefined,
    'examples',
  ],
  [
    'a subscriber without an EXT_USER_ID address accepted',
    () => (x) =>
      x.path === '/api/subscribers/create' &&
      x.status >= 400 &&
      Array.isArray(requestOf(x)?.addresses) &&
      extUserId(x.requestBody) === undefined
        ? { status: 200, body: {} }
        : undefined,
    'boundaries',
  ],
  [
    'a requestId accepted twice when sent at once (checked, then stored)',
    () => (x) =>
      isSchedule(x) && x.overlapped && x.body?.title === 'requestId-is-not-unique'
        ? { status: 200, body: { requestId: requestOf(x)?.requestId } }
        : undefined,
    'stateful',
  ],
  [
    'a 405 without the Allow header',
    () => (x) =>
      x.status === 405
        ? { headers: Object.fromEntries(Object.entries(x.headers).filter(([name]) => name !== 'allow')) }
        : undefined,
    'bad-input',
  ],
  [
    'a thread whose closing failed closed anyway (reported as already closed next time)',
    () => {
      const failed = new Set<string>();
      return (x) => {
        if (!isThreads(x) || x.status !== 200) return undefined;
        const again = (x.body.not_resolved_due_to_system_error ?? []).filter((id: unknown) => failed.has(String(id)));
        for (const id of x.body.not_resolved_due_to_system_error ?? []) failed.add(String(id));
        if (again.length === 0) return undefined;
        return {
          body: {
            ...x.body,
            not_resolved_due_to_system_error: x.body.not_resolved_due_to_system_error.filter(
              (id: unknown) => !again.includes(id),
            ),
            already_resolved_threads: [...x.body.already_resolved_threads, ...again],
          },
        };
      };
    },
    'stateful',
  ],
  // Not here: a list of identifiers capped at 100. Section 8 shows no maximum for threadIds (the open point
  // `thread-ids-count`), so the default profile allows a cap; --profile strict checks that 1000 are taken.

  // An integer in JSON's exponent form (RFC 8259): read as a double, the id comes back a digit off; or not read at all.
  [
    'an id past 2^53 with an exponent read as a double',
    () => (x) =>
      isThreads(x) && x.status === 200 && /\d[eE][+-]?\d/.test(x.requestBody)
        ? {
            body: Object.fromEntries(
              Object.entries(x.body).map(([k, v]) => [
                k,
                Array.isArray(v) ? v.map((id) => (typeof id === 'bigint' ? BigInt(Number(id)) : id)) : v,
              ]),
            ),
          }
        : undefined,
    'boundaries',
  ],
  [
    'an id with an exponent answered 500',
    () => (x) =>
      isThreads(x) && /\d[eE][+-]?\d/.test(x.requestBody) ? systemError('cannot read a number') : undefined,
    'boundaries',
  ],
  // One break for each rule of the description that had a check but no break (test/trace/rules.ts).
  [
    'a blacklisted subscriber refused',
    () => (x) => (isCreate(x) && requestOf(x)?.blacklisted === true ? refuse('bad-blacklisted') : undefined),
    'examples',
  ],
  [
    'a valueType outside STRING, ENUM and DATE accepted',
    () => (x) =>
      isCreate(x) &&
      x.status === 400 &&
      (requestOf(x)?.parameterValues ?? []).some?.((p: any) => !['STRING', 'ENUM', 'DATE'].includes(p?.valueType))
        ? accepted(x)
        : undefined,
    'boundaries',
  ],
  [
    'a DATE not written YYYY-MM-DD accepted',
    () => (x) => (isCreate(x) && x.status >= 400 && badDates(requestOf(x)) ? accepted(x) : undefined),
    'boundaries',
  ],
  [
    'WhatsApp content refused by a cascade with a WHATSAPP stage',
    () => (x) =>
      isSchedule(x) && x.status === 200 && requestOf(x)?.content?.whatsappContent
        ? refuse('cascade-scheduling-request-not-valid')
        : undefined,
    'examples',
  ],
  [
    'a schedule without subscriberFilter accepted',
    () => (x) =>
      isSchedule(x) && x.status >= 400 && requestOf(x) && requestOf(x).subscriberFilter === undefined
        ? accepted(x)
        : undefined,
    'boundaries',
  ],
  [
    'channel content given as no object accepted',
    () => (x) => {
      const sms = requestOf(x)?.content?.smsContent;
      return isSchedule(x) &&
        x.status >= 400 &&
        sms !== undefined &&
        (sms === null || typeof sms !== 'object' || Array.isArray(sms))
        ? accepted(x)
        : undefined;
    },
    'boundaries',
  ],
  [
    'an identifier that matches no thread reported as resolved',
    () => (x) =>
      isThreads(x) && x.status === 200 && x.body?.not_existing_threads?.length
        ? {
            body: {
              ...x.body,
              resolved_threads: [...x.body.resolved_threads, ...x.body.not_existing_threads],
              not_existing_threads: [],
            },
          }
        : undefined,
    'examples',
  ],
  ['close threads served without its v1 segment', () => (x) => (isThreads(x) ? notServed(x) : undefined), 'examples'],
  [
    'a close without a comment refused',
    () => (x) =>
      isThreads(x) && x.status === 200 && requestOf(x)?.comment === undefined ? refuse('comment-required') : undefined,
    'examples',
  ],
  [
    'create subscriber served under a version segment only',
    () => (x) => (isCreate(x) ? notServed(x) : undefined),
    'examples',
  ],
  [
    'a created subscriber answered 201',
    () => (x) => (isCreate(x) && x.status === 200 ? { status: 201 } : undefined),
    'examples',
  ],
  [
    'a refused subscriber without its code',
    () => (x) => (isCreate(x) && x.status >= 400 ? { body: { status: x.status, detail: x.body?.detail } } : undefined),
    'examples',
  ],
  [
    'schedule cascade served under a version segment only',
    () => (x) => (isSchedule(x) ? notServed(x) : undefined),
    'examples',
  ],
  [
    'content matching no template accepted',
    () => (x) => (x.body?.title === 'matched-template-not-found' ? accepted(x) : undefined),
    'examples',
  ],
  [
    'an unknown cascadeId accepted',
    () => (x) => (x.body?.title === 'cascade-not-found' ? accepted(x) : undefined),
    'examples',
  ],
  [
    'matched-template-not-found answered with another code',
    () => (x) =>
      x.body?.title === 'matched-template-not-found' ? { body: { ...x.body, title: 'template-mismatch' } } : undefined,
    'examples',
  ],
  [
    'the violation of a channel no stage has left out',
    () => (x) => {
      const detail = x.body?.detail;
      const at = typeof detail === 'string' ? detail.indexOf('Violations:') + 'Violations:'.length : -1;
      if (at < 'Violations:'.length) return undefined;
      // The items that name a stage stay: the list split on the semicolons outside brackets.
      const items = detail
        .slice(at)
        .split(/;(?![^[]*\])/)
        .filter((item: string) => /\[[^\]]*stage[^\]]*\]/i.test(item));
      return { body: { ...x.body, detail: `${detail.slice(0, at)}${items.join(';')}` } };
    },
    'examples',
  ],
];

/**
 * Breaks of rules whose check is this contract's decision (the description gives no code or type there): the strict
 * profile must fail on each, against an implementation that passes strict unbroken (the sandbox).
 */
const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);
const items = (body: any, list: string): any[] => (Array.isArray(body?.[list]) ? body[list] : []);
const refusedCreate = (x: Exchange, bad: (body: any) => boolean) =>
  isCreate(x) && x.status >= 400 && bad(requestOf(x)) ? accepted(x) : undefined;
export const strictMutations: Array<[string, () => Mutation, StageName?]> = [
  [
    'an address given as no string accepted',
    () => (x) =>
      refusedCreate(x, (b) => items(b, 'addresses').some((a) => isObject(a) && typeof a.address !== 'string')),
    'boundaries',
  ],
  [
    'parameterValues given as no list accepted',
    () => (x) => refusedCreate(x, (b) => b?.parameterValues !== undefined && !Array.isArray(b.parameterValues)),
    'boundaries',
  ],
  [
    'a parameter without its name accepted',
    () => (x) =>
      refusedCreate(x, (b) => items(b, 'parameterValues').some((p) => isObject(p) && typeof p.name !== 'string')),
    'boundaries',
  ],
  [
    'a parameter value given as no string accepted',
    () => (x) =>
      refusedCreate(x, (b) =>
        items(b, 'parameterValues').some((p) => p && p.value !== undefined && typeof p.value !== 'string'),
      ),
    'boundaries',
  ],
  [
    'an ENUM value outside its values accepted',
    () => (x) =>
      x.body?.title === 'parameter-value-is-not-valid' && /expected one of/.test(String(x.body?.detail))
        ? accepted(x)
        : undefined,
    'examples',
  ],
  [
    'tagValues given as a list of strings accepted',
    () => (x) => refusedCreate(x, (b) => items(b, 'tagValues').some((t) => !isObject(t))),
    'boundaries',
  ],
  [
    'a tag never created accepted',
    () => (x) => (x.body?.title === 'tag-not-found' ? accepted(x) : undefined),
    'examples',
  ],
  [
    'a close without threadIds accepted',
    () => (x) =>
      isThreads(x) && x.status >= 400 && isObject(requestOf(x)) && requestOf(x).threadIds === undefined
        ? accepted(x)
        : undefined,
    'boundaries',
  ],
];

/**
 * The breaks of the breadth classes that generated requests alone must find (a length counted in UTF-16 units needs the
 * boundaries: random text rarely fills a limit with emoji).
 */
const generatedFinds = [
  'non-ASCII message text answered 500',
  'a startTime with a numeric offset refused',
  'an upper-case UUID requestId refused',
  'int32 ids: a thread id past 2^31 answered 500',
];

/** The suite's stages, the quickest first (the fewest requests): most breaks show in the first ones. */
const costOrder = ['dredd', 'stateful', 'bad-input', 'examples', 'boundaries', 'generated'] as const;
type StageName = (typeof costOrder)[number];
// A new stage runs before the generated one.
const cost = (name: string) =>
  costOrder.includes(name as StageName) ? costOrder.indexOf(name as StageName) : costOrder.length - 1.5;
const quickestFirst = [...stages].sort((a, b) => cost(a.name) - cost(b.name));
/**
 * The stages, the one named first, then the others the quickest first: the stages before the one that shows a break
 * only pass, a fifth of the test's CPU. A name that is wrong or stale costs that time again, nothing else.
 */
const startingWith = (name: StageName | undefined) => [
  ...quickestFirst.filter((stage) => stage.name === name),
  ...quickestFirst.filter((stage) => stage.name !== name),
];

/** A break is caught by the stage that runs first for it: one named wrong or not at all runs the others before, for nothing. */
const expectFirstStage = (name: string, caughtBy: string, shownBy: StageName | undefined) =>
  expect(caughtBy, `${name}: caught by ${caughtBy}; name that stage in the list, as the one that shows it`).toBe(
    startingWith(shownBy)[0]!.name,
  );

/**
 * The breaks recorded traffic cannot show, each with why: an answer the document allows some request in some state, so
 * only the suite, which knows the state it made, sees it is wrong for this one. Every other break the recording of
 * the suite's run shows must fail `traffic` and the checking proxy.
 */
const cascadeUnseen = "the cascade's stages, which decide it, are not in the log";
const balanceUnseen = "an account's balance is not in the log (it may be topped up between two requests)";
const stateUnseen = (what: string) => `${what} the deployment holds, which decide it, are not in the log`;
const notInRecordings: Record<string, string> = {
  'WhatsApp content refused by a cascade with a WHATSAPP stage': `refused with cascade-scheduling-request-not-valid, a valid request's answer when its content does not fit the cascade: ${cascadeUnseen}`,
  'the violation of a channel no stage has left out': `which violations of its cascade a request has: ${cascadeUnseen}`,
  'an identifier that matches no thread reported as resolved': stateUnseen('the threads'),
  'content matching no template accepted': stateUnseen("the account's templates"),
  'an unknown cascadeId accepted': stateUnseen('the cascades'),
  'a wrong status':
    "a 403 is an error the operation's `default` allows any request; only a credential known to be wrong shows it must be 401",
  'a violation missing from detail': `which violations of its cascade a request has: ${cascadeUnseen}`,
  'a schedule whose content is missing for a cascade stage accepted': `whether content is missing for a stage: ${cascadeUnseen}`,
  'a startTime with a numeric offset refused': `refused with cascade-scheduling-request-not-valid, a valid request's answer when its content does not fit the cascade: ${cascadeUnseen}`,
  'an upper-case UUID requestId refused': `refused with cascade-scheduling-request-not-valid, a valid request's answer when its content does not fit the cascade: ${cascadeUnseen}`,
  'the balance checked only on the first message of a key': balanceUnseen,
  'an out-of-balance account accepted': balanceUnseen,
  // An open world: what the description says may happen between two exchanges with neither showing it.
  'a closed thread reported as resolved again':
    'section 3.1: "Transitions that reopen a thread: not shown": the thread may have been reopened between the calls (x-unseen-moves)',
  'a thread whose closing failed closed anyway (reported as already closed next time)':
    'a close threads call the log does not hold (another caller, another host) may have closed it between the calls (x-unseen-moves)',
  'a second subscriber with the same external identifier accepted':
    'section 4.2: the update and delete subscriber methods are referenced, not shown: the first subscriber may have been deleted between the calls (released-unseen)',
};

/**
 * The suite's traffic through a checking proxy (judging the service's side, as it records a HAR file): what the proxy
 * judged, and what `traffic` judges of the recording.
 */
async function recorded(target: string) {
  const dir = mkdtempSync(join(tmpdir(), 'mutation-traffic-'));
  const har = join(dir, 'run.har');
  const proxy = await startProxy({ target, judge: 'service', record: har });
  return {
    url: proxy.url,
    async verdicts() {
      try {
        await proxy.close();
        const proxied = proxy.judge.report();
        const { report, judge } = await judgeTraffic([har]);
        return {
          proxy: proxied.ok,
          traffic: report.ok,
          summary: trafficSummary(report, judge),
          exchanges: report.traffic.exchanges,
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The mutation test against one implementation: unbroken it passes twice, each break fails the run. With `traffic`,
 * the runs go through a checking proxy that records them, and the proxy and `traffic` on the recording must judge
 * alike: the unbroken runs pass, and each break a recording can show fails.
 */
export function mutationTest(impl: Implementation, options: { traffic?: boolean; strict?: boolean } = {}): void {
  const killed: string[] = [];
  const recordedToo: string[] = [];
  const runThrough = async (mutation: Mutation, runs: number, only?: typeof generatedStage) => {
    const server = await impl.start();
    const proxy = await startMutatingProxy(server.url, mutation);
    try {
      const reports = [];
      for (let i = 0; i < runs; i++)
        reports.push(
          await runSuite(
            suiteContext({
              server: proxy.url,
              credentials: impl.credentials,
              values: impl.values,
              seed: i + 1,
              mock: false,
              log: () => {},
            }),
            only ? [only] : undefined,
          ),
        );
      return reports;
    } finally {
      await proxy.close();
      await server.close();
    }
  };

  const firstFailingStage = async (mutation: Mutation, shownBy: StageName | undefined, profile?: 'strict') => {
    const server = await impl.start();
    const proxy = await startMutatingProxy(server.url, mutation);
    const checking = options.traffic && !profile ? await recorded(proxy.url) : undefined;
    try {
      const ctx = suiteContext({
        ...(profile ? { profile } : {}),
        server: checking?.url ?? proxy.url,
        credentials: impl.credentials,
        values: impl.values,
        seed: 1,
        mock: false,
        bail: true,
        log: () => {},
      });
      let failing: { stage: string; check: string } | undefined;
      for (const stage of startingWith(shownBy)) {
        const failed = (await runSuite(ctx, [stage])).results.find((r) => !r.ok);
        if (failed) {
          failing = { stage: stage.name, check: failed.name };
          break;
        }
      }
      return { failing, recorded: await checking?.verdicts() };
    } finally {
      await proxy.close();
      await server.close();
    }
  };

  describe(`mutation test against ${impl.name}`, () => {
    it("unbroken, a freshly started implementation passes twice in a row with no reset (so each failure below is the break's)", async () => {
      for (const report of await runThrough(() => undefined, 2)) expect(report.ok, summary(report)).toBe(true);
    }, 60_000);

    if (options.traffic)
      it('unbroken, the recording of a whole run passes traffic and the checking proxy (the service side)', async () => {
        const server = await impl.start();
        const checking = await recorded(server.url);
        try {
          const report = await runSuite(
            suiteContext({
              server: checking.url,
              credentials: impl.credentials,
              values: impl.values,
              seed: 1,
              mock: false,
              log: () => {},
            }),
          );
          expect(report.ok, summary(report)).toBe(true);
        } finally {
          const verdicts = await checking.verdicts();
          await server.close();
          expect(verdicts.exchanges).toBeGreaterThan(200);
          expect(verdicts.traffic, verdicts.summary).toBe(true);
          expect(verdicts.proxy, verdicts.summary).toBe(true);
        }
      }, 60_000);

    // The suite fails when one of its stages fails (no stage depends on another's leftovers): the
    // stages run one by one, the one the list names for the break first, then the quickest first,
    // each stopping at its first failed check (bail), until one fails; a break no stage finds runs
    // them all.
    it.each(mutations)(
      'fails on: %s',
      async (name, make, shownBy) => {
        const { failing, recorded } = await firstFailingStage(make(), shownBy);
        if (failing) killed.push(`${name} (caught by ${failing.stage}: ${failing.check})`);
        expect(failing, `${name}: no check of any stage failed`).toBeDefined();
        expectFirstStage(name, failing!.stage, shownBy);
        if (!recorded) return;
        // The proxy and `traffic` judge the same exchanges with the same registry: the same verdict.
        expect(recorded.proxy, recorded.summary).toBe(recorded.traffic);
        const why = notInRecordings[name];
        if (!recorded.traffic) recordedToo.push(name);
        expect(
          recorded.traffic,
          why
            ? `${name}: listed as not shown by a recording (${why}), but traffic caught it: take it off the list\n${recorded.summary}`
            : `${name}: the suite caught it; the recording of its ${recorded.exchanges} exchanges, judged by traffic and the proxy, did not\n${recorded.summary}`,
        ).toBe(why !== undefined);
      },
      60_000,
    );

    if (options.strict)
      it.each(strictMutations)(
        'strict fails on: %s',
        async (name, make, shownBy) => {
          const { failing } = await firstFailingStage(make(), shownBy, 'strict');
          if (failing) killed.push(`${name} (strict; caught by ${failing.stage}: ${failing.check})`);
          expect(failing, `${name}: no check of any stage failed under --profile strict`).toBeDefined();
          expectFirstStage(name, failing!.stage, shownBy);
        },
        60_000,
      );

    // One mistake made everywhere reads as one cause: each code in upper case is not a cause per code.
    it('every error code answered in upper case reads as at most 3 causes', async () => {
      const [report] = await runThrough(
        (x) =>
          typeof x.body?.title === 'string' ? { body: { ...x.body, title: x.body.title.toUpperCase() } } : undefined,
        1,
      );
      expect(report!.ok).toBe(false);
      const found = causes(report!.results);
      const shown = found.map((c) => `${c.check}: ${c.fault}`);
      expect(found.length, shown.join('\n')).toBeLessThanOrEqual(3);
      // The status check reads it as the one mistake it is.
      expect(shown.filter((c) => c.startsWith('status:'))).toEqual([
        "status: an error code written in other letters than the document's",
      ]);
    }, 60_000);

    // Generation finds these without being told where: no boundary check, only generated requests.
    it.each(mutations.filter(([name]) => generatedFinds.includes(name)))(
      'the generated stage alone fails on: %s',
      async (_name, make) => {
        const [report] = await runThrough(make(), 1, generatedStage);
        expect(report!.ok).toBe(false);
        expect(
          report!.results
            .filter((r) => !r.ok)
            .map((r) => r.actual)
            .join('\n'),
        ).toMatch(/; replay: --seed 1 --only generated \(shrunk in \d+ steps\)$/m);
      },
      60_000,
    );

    afterAll(() => {
      console.log(
        `mutation score against ${impl.name}: ${killed.length}/${mutations.length + (options.strict ? strictMutations.length : 0)} breaks of the contract caught\n  ${killed.join('\n  ')}`,
      );
      if (options.traffic)
        console.log(
          `recorded as traffic: ${recordedToo.length}/${mutations.length} caught by traffic and the proxy; not shown by a recording: ${Object.keys(notInRecordings).length}`,
        );
    });
  });
}
