// A second, independent implementation of the messaging service, written only from the service's
// description and the OpenAPI document (never from the sandbox). Wherever the description leaves
// room it chooses differently from the document's examples, so that the conformance suite is seen
// to judge by the contract. Node built-ins only; state lives in memory, fresh per start. Given a
// callback URL, it posts a status callback for every accepted message (deliver, startIndependent).
// Where the description allows several answers (the document's open points), `Choices` switches to
// the other ones, so that a test can show the suite accepts every legal implementation.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Deployment values: credentials and fixtures of this implementation (vars.ts maps the examples to them).
export const API_KEY = 'ind-key-with-balance';
export const API_KEY_NO_BALANCE = 'ind-key-without-balance';
export const INTEGRATOR_TOKEN = 'ind-integrator-token';
export const EXISTING_SUBSCRIBER = 'ind-existing-1';
type Channel = 'VIBER' | 'WHATSAPP' | 'SMS';
export const CASCADES: ReadonlyMap<number, ReadonlyArray<{ uuid: string; channel: Channel }>> = new Map([
  [
    7001,
    [
      { uuid: 'c2b5a8e1-7001-4c1a-8f00-0000000000a1', channel: 'VIBER' },
      { uuid: 'c2b5a8e1-7001-4c1a-8f00-0000000000a2', channel: 'SMS' },
    ],
  ],
  [
    7002,
    [
      { uuid: 'c2b5a8e1-7002-4c1a-8f00-0000000000b1', channel: 'WHATSAPP' },
      { uuid: 'c2b5a8e1-7002-4c1a-8f00-0000000000b2', channel: 'VIBER' },
      { uuid: 'c2b5a8e1-7002-4c1a-8f00-0000000000b3', channel: 'SMS' },
    ],
  ],
  [7003, [{ uuid: 'c2b5a8e1-7003-4c1a-8f00-0000000000c1', channel: 'SMS' }]],
  [7004, [{ uuid: 'c2b5a8e1-7004-4c1a-8f00-0000000000d1', channel: 'WHATSAPP' }]],
]);
const CONTENT_KEYS: ReadonlyArray<readonly [string, Channel]> = [
  ['viberContent', 'VIBER'],
  ['whatsappContent', 'WHATSAPP'],
  ['smsContent', 'SMS'],
];
// The same approved templates on every channel; the text must match one of them.
const TEMPLATES = [/^Your order .+ is ready for pickup\.$/u, /^Your order .+ is on its way\.$/u];
const PARAMETERS = new Map<string, { type: 'STRING' | 'ENUM' | 'DATE'; values?: string[] }>([
  ['city', { type: 'STRING' }],
  ['loyaltyLevel', { type: 'ENUM', values: ['GOLD', 'SILVER', 'BRONZE'] }],
  ['birthday', { type: 'DATE' }],
]);
const TAGS = new Set(['vip', 'newsletter']);
/** The host of an attachment's URL ('' where there is none): a host under .invalid never answers (RFC 2606). */
const hostOf = (attachment: unknown): string => {
  try {
    return new URL(String((attachment as Obj | null)?.url)).hostname;
  } catch {
    return '';
  }
};
/** The longest text a channel delivers (the description leaves the limit to the deployment). */
const MAX_TEXT = 800;
const ADDRESS_TYPES = new Set([
  'INSTAGRAM_ID',
  'FACEBOOK_ID',
  'DEVICE_APP_ID',
  'PHONE',
  'EMAIL',
  'UTM',
  'COOKIE_ID',
  'TELEGRAM_ID',
  'GOOGLE_ID',
  'APPLE_ID',
  'YANDEX_ID',
  'EXT_USER_ID',
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MEDIA_TYPES = new Set(['IMAGE', 'DOCUMENT', 'VIDEO', 'AUDIO']);
// Limits as the document states them.
const MAX_BODY_BYTES = 1024 * 1024,
  COMMENT_MAX = 300,
  ATTACHMENT_NAME_MAX = 70,
  LIST_ITEM_MAX = 24;
const BUTTONS_MAX = 10,
  URL_BUTTONS_MAX = 2,
  PHONE_BUTTONS_MAX = 1,
  PAYLOAD_MAX = 128;
// Status callbacks: this implementation's sender signature; the retry delays of the public docs.
const SUBJECT = 'Independent Store',
  SUBJECT_ID = 64,
  RETRY_DELAYS_MS = [4_000, 128_000, 2_048_000],
  DUPLICATE_WINDOW_MS = 5 * 60_000,
  POST_TIMEOUT_MS = 10_000;
// A message due later than this is never reported: state lives in memory, and a timer of more
// than 2^31 ms would fire at once.
const CALLBACK_HORIZON_MS = 24 * 3_600_000;

type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
/** A success answered as plain text. */
class Plain {
  constructor(readonly text: string) {}
}

class Problem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
  ) {
    super(title);
  }
}
const problem = (status: number, title: string, detail: string) => new Problem(status, title, detail);
const bad = (title: string, detail: string) => new Problem(400, title, detail);
// "system-error ... may also occur on a malformed request": every wrong JSON type ends here.
const malformed = (detail: string) => new Problem(500, 'system-error', `Unreadable request: ${detail}`);

/** The other legal answers this implementation can take, one switch each (the open point each takes in brackets). */
export interface Choices {
  /** Errors as application/problem+json (error-media-type). */
  problemJson?: boolean;
  /** An identifier given twice is listed for each time (repeated-ids: each-occurrence). */
  eachOccurrence?: boolean;
  /** The result lists in reverse order (result-order: any-order). */
  reversedLists?: boolean;
  /** A left-out useMarketingMessagesApi read as false (absent-marketing-option: absent-is-false). */
  absentIsFalse?: boolean;
  /** A created subscriber answered with an empty 200 (created-body: no-body). */
  emptyCreated?: boolean;
  /** A violation's brackets with keys of its own (violation-keys: any-keys). */
  ownViolationKeys?: boolean;
  /** Lengths in UTF-16 units, as Java and JavaScript count them (characters: utf-16-units). */
  utf16Units?: boolean;
  /** A SENT callback before each result (statuses-reported: each-status). */
  eachStatus?: boolean;
  /** A missing text reported after the channel's own rules (error-precedence: any-that-applies). */
  textLast?: boolean;
  /** Content only missing for stages answered with the validation code (error-precedence: any-that-applies). */
  missingAsNotValid?: boolean;
  /** Every address, not only EXT_USER_ID, names one subscriber (unique-addresses: every-address). */
  uniqueAddresses?: boolean;
  /** A created subscriber answered with `200 text/plain` "Created" (created-body: any-body). */
  textCreated?: boolean;
  /** A requestId that is no UUID refused (request-id-form: uuid-only). */
  uuidRequestIds?: boolean;
  /** At most this many threadIds in one call (thread-ids-count: a-limit). */
  maxThreadIds?: number;
  /** Any JSON type at the template fields no source types (their type refused is this contract's decision). */
  lenientTemplateFields?: boolean;
  /** A request with no credential at all answered 403 forbidden (missing-credential: any-error). */
  noCredentialForbidden?: boolean;
  /** A subscriber's lists of at most this many items, a longer one refused with 400 (array-sizes: client-error). */
  maxListItems?: number;
  /**
   * A token bucket per credential: past it, 429 with Retry-After (rate-limit: too-many-requests). `initial`: the tokens a
   * credential starts with (default `burst`; 0 makes its first request meet the limit however slow the machine).
   */
  rateLimit?: { perSecond: number; burst: number; initial?: number };
}
/** Length in code points, or in UTF-16 units where so chosen; never in bytes. */
const counter = (choices: Choices) => (s: string) => (choices.utf16Units ? s.length : [...s].length);

/** JSON.parse loses int64 digits; this parser keeps integers past 2^53 as bigint. */
function parseJson(text: string): Json {
  let i = 0;
  const broken = () => malformed(`the body is not JSON (near character ${i}).`);
  const skip = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const string = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i++ >= text.length) throw broken();
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      throw broken();
    }
  };
  const number = (): number | bigint => {
    const re = /(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw broken();
    i = re.lastIndex;
    const frac = m[3] ?? '';
    const exp = Number(m[4] ?? '0') - frac.length;
    const digits = (m[2] ?? '') + frac;
    // An integer written with a fraction or a negative exponent (90071992547409930e-1) keeps its digits too.
    const kept = exp < 0 ? digits.length + exp : digits.length;
    if (exp > 40 || kept <= 0 || !/^0*$/.test(digits.slice(kept))) return Number(m[0]); // a fraction, or past int64
    const big = BigInt(digits.slice(0, kept)) * 10n ** BigInt(Math.max(exp, 0)) * (m[1] ? -1n : 1n);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  };
  const value = (depth: number): Json => {
    if (depth > 200) throw broken();
    skip();
    const c = text[i];
    if (c === '"') return string();
    if (c === '{' || c === '[') {
      i++;
      const items: Json[] = [],
        members: Obj = Object.create(null) as Obj,
        close = c === '{' ? '}' : ']';
      skip();
      if (text[i] === close) {
        i++;
        return c === '{' ? members : items;
      }
      for (;;) {
        skip();
        if (c === '{') {
          if (text[i] !== '"') throw broken();
          const key = string();
          skip();
          if (text[i++] !== ':') throw broken();
          members[key] = value(depth + 1);
        } else items.push(value(depth + 1));
        skip();
        const d = text[i++];
        if (d === close) return c === '{' ? members : items;
        if (d !== ',') throw broken();
      }
    }
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    return number();
  };
  const result = value(0);
  skip();
  if (i !== text.length) throw broken();
  return result;
}

// Readers: a wrong JSON type anywhere is a malformed request.
const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: Json | undefined): v is number | bigint =>
  typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
function obj(v: Json | undefined, at: string): Obj {
  if (!isObj(v)) throw malformed(`${at} should be an object.`);
  return v;
}
function list(v: Json | undefined, at: string): Json[] {
  if (!Array.isArray(v)) throw malformed(`${at} should be an array.`);
  return v;
}
const optList = (v: Json | undefined, at: string) => (v === undefined ? [] : list(v, at));
function optStr(v: Json | undefined, at: string): string | undefined {
  if (v !== undefined && typeof v !== 'string') throw malformed(`${at} should be a string.`);
  return v;
}
function str(v: Json | undefined, at: string): string {
  const s = optStr(v, at);
  if (!s) throw malformed(`${at} is missing or empty.`);
  return s;
}
function optBool(v: Json | undefined, at: string): boolean | undefined {
  if (v !== undefined && typeof v !== 'boolean') throw malformed(`${at} should be true or false.`);
  return v;
}

const validDate = (y: number, m: number, d: number) =>
  m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
function isDateTime(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)$/.exec(s);
  if (!m) return false;
  const n = m.slice(1).map((x) => Number(x ?? 0));
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0, oh = 0, om = 0] = n;
  return validDate(y, mo, d) && h <= 23 && mi <= 59 && sec <= 60 && oh <= 23 && om <= 59;
}

interface State {
  choices: Choices;
  threads: Map<string, { closed: boolean; failing: boolean; comment?: string }>;
  subscribers: Map<string, Set<string>>; // per API key: the EXT_USER_ID (or every) addresses taken
  requestIds: Set<string>;
  nextSubscriberId: number;
  nextMessageId: number;
  /** When each recipient last got each content, for the `duplicated` rule. */
  sentAt: Map<string, number>;
  /** Present with a callback URL: at `at`, posts the callback that `result()` builds then. */
  report?: (at: number, result: () => Obj) => void;
}
function freshState(choices: Choices): State {
  const threads: State['threads'] = new Map();
  for (const id of [5101, 5102, 5103, 5104, 5105, 5106]) threads.set(String(id), { closed: false, failing: false });
  for (const id of [5201, 5202]) threads.set(String(id), { closed: true, failing: false });
  for (const id of [5301, 5302]) threads.set(String(id), { closed: false, failing: true });
  const subscribers = new Map([API_KEY, API_KEY_NO_BALANCE].map((k) => [k, new Set([EXISTING_SUBSCRIBER])]));
  return {
    choices,
    threads,
    subscribers,
    requestIds: new Set(),
    nextSubscriberId: 40001,
    nextMessageId: 880000001,
    sentAt: new Map(),
  };
}

/** POST /api/v1/threads/close. Ids are kept as decimal text so int64 digits survive. */
function closeThreads(state: State, body: Json): string {
  const req = obj(body, 'the body');
  const ids = list(req.threadIds, 'threadIds').map((v, n) => {
    if (!isInt(v)) throw malformed(`threadIds[${n}] should be an integer.`);
    const id = BigInt(v);
    if (id < -(2n ** 63n) || id >= 2n ** 63n) throw malformed(`threadIds[${n}] does not fit in 64 bits.`);
    return id.toString();
  });
  const most = state.choices.maxThreadIds;
  if (most !== undefined && ids.length > most)
    throw bad('too-many-thread-ids', `A call closes at most ${most} threads, ${ids.length} were given.`);
  const comment = optStr(req.comment, 'comment');
  const chars = counter(state.choices);
  // The description leaves a longer comment open: this implementation refuses the whole call.
  if (comment !== undefined && chars(comment) > COMMENT_MAX)
    throw problem(
      422,
      'comment-too-long',
      `The closing comment has ${chars(comment)} characters, the limit is ${COMMENT_MAX}.`,
    );
  const out = {
    resolved_threads: [] as string[],
    not_existing_threads: [] as string[],
    already_resolved_threads: [] as string[],
    not_resolved_due_to_system_error: [] as string[],
  };
  // Each identifier is judged once, by the state at the call; repeated, it is listed once or for each time.
  const listOf = new Map<string, string[]>();
  for (const id of new Set(ids)) {
    const thread = state.threads.get(id);
    if (!thread) listOf.set(id, out.not_existing_threads);
    else if (thread.closed) listOf.set(id, out.already_resolved_threads);
    else if (thread.failing) listOf.set(id, out.not_resolved_due_to_system_error);
    else {
      thread.closed = true;
      if (comment !== undefined) thread.comment = comment;
      listOf.set(id, out.resolved_threads);
    }
  }
  for (const id of state.choices.eachOccurrence ? ids : listOf.keys()) listOf.get(id)!.push(id);
  if (state.choices.reversedLists) for (const list of Object.values(out)) list.reverse();
  const lists = Object.entries(out).map(([k, v]) => `"${k}":[${v.join(',')}]`);
  return `{${lists.join(',')},"closedAt":${JSON.stringify(new Date().toISOString())}}`;
}

/** POST /api/subscribers/create. The description shows no error codes: these are this implementation's own. */
function createSubscriber(state: State, apiKey: string, body: Json): Json | string | Plain {
  const req = obj(body, 'the body');
  optBool(req.blacklisted, 'blacklisted');
  const addresses = optList(req.addresses, 'addresses').map((a, n) => {
    const o = obj(a, `addresses[${n}]`);
    const address = optStr(o.address, `addresses[${n}].address`),
      type = optStr(o.type, `addresses[${n}].type`);
    if (!address || type === undefined || !ADDRESS_TYPES.has(type))
      throw bad('bad-address', `Address ${n + 1} needs a non-empty address and a known upper-case type.`);
    return { address, type };
  });
  const limit = state.choices.maxListItems;
  for (const list of ['addresses', 'parameterValues', 'tagValues'] as const) {
    const items = req[list];
    if (limit !== undefined && Array.isArray(items) && items.length > limit)
      throw bad('too-many-items', `${list} holds ${items.length} items; at most ${limit} are taken.`);
  }
  const ext = addresses.filter((a) => a.type === 'EXT_USER_ID');
  const extId = ext[0]?.address;
  if (ext.length !== 1 || extId === undefined)
    throw bad('ext-user-id-required', `Give exactly one EXT_USER_ID address (found ${ext.length}).`);
  optList(req.parameterValues, 'parameterValues').forEach((p, n) => {
    const o = obj(p, `parameterValues[${n}]`),
      at = `parameterValues[${n}]`;
    const name = str(o.name, `${at}.name`),
      valueType = str(o.valueType, `${at}.valueType`),
      value = optStr(o.value, `${at}.value`);
    if (value === undefined) throw malformed(`${at}.value is missing.`);
    const def = PARAMETERS.get(name);
    if (!def) throw bad('unknown-parameter', `The account has no subscriber parameter called "${name}".`);
    const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    const ok =
      valueType === def.type &&
      (def.type === 'STRING' ||
        (def.type === 'ENUM' && (def.values ?? []).includes(value)) ||
        (def.type === 'DATE' && !!date && validDate(Number(date[1]), Number(date[2]), Number(date[3]))));
    if (!ok)
      throw bad(
        'bad-parameter-value',
        `"${value}" is no ${def.type} value for "${name}"${def.values ? ` (allowed: ${def.values.join('/')})` : def.type === 'DATE' ? ' (write YYYY-MM-DD)' : ''}.`,
      );
  });
  optList(req.tagValues, 'tagValues').forEach((t, n) => {
    const name = str(obj(t, `tagValues[${n}]`).name, `tagValues[${n}].name`);
    if (!TAGS.has(name)) throw bad('unknown-tag', `Tag "${name}" has to be created before it is used.`);
  });
  const taken = state.subscribers.get(apiKey) ?? new Set<string>();
  state.subscribers.set(apiKey, taken);
  const unique = state.choices.uniqueAddresses ? addresses.map((a) => a.address) : [extId];
  const used = unique.find((a) => taken.has(a));
  if (used !== undefined) throw problem(409, 'subscriber-exists', `Address ${used} already names a subscriber.`);
  for (const a of unique) taken.add(a);
  if (state.choices.textCreated) return new Plain('Created');
  return state.choices.emptyCreated ? '' : { subscriberId: state.nextSubscriberId++ };
}

const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ','); // en-US separators: 7,001

/** The checks of one content entry, in the order of the error table. */
function checkContent(key: string, c: Obj, choices: Choices): void {
  const at = `content.${key}`;
  const chars = counter(choices);
  // The template fields no source types: read as strings, or not read at all where so chosen.
  const untyped = (v: Json | undefined, where: string) => void (choices.lenientTemplateFields || optStr(v, where));
  if (c.contentType === undefined) throw bad('contentType-not-specified', `${at} lacks its contentType.`);
  const type = str(c.contentType, `${at}.contentType`);
  const text = optStr(c.text, `${at}.text`);
  const noText = () => {
    if (type === 'TEXT' && !text) throw bad('text-not-specified', `${at} is TEXT content but carries no text.`);
  };
  if (!choices.textLast) noText();
  let textIgnored = false;
  if (key === 'viberContent') {
    const caption = optStr(c.caption, `${at}.caption`),
      action = optStr(c.action, `${at}.action`);
    if (caption !== undefined || action !== undefined) {
      // a button: both parts needed
      if (!caption) throw bad('caption-not-specified', `The Viber button in ${at} has no caption.`);
      if (!action) throw bad('action-not-specified', `The Viber button in ${at} has no action.`);
    }
  }
  if (key === 'whatsappContent') {
    if (c.attachment !== undefined) {
      const att = obj(c.attachment, `${at}.attachment`);
      if (!URL.canParse(str(att.url, `${at}.attachment.url`)))
        throw bad('attachment-url-is-not-valid', `${at}.attachment.url is no absolute URL.`);
      const name = optStr(att.name, `${at}.attachment.name`);
      if (name === undefined && type === 'DOCUMENT')
        throw bad('attachmentName-not-specified', `The document in ${at} needs a file name.`);
      if (name === '') throw malformed(`${at}.attachment.name is empty.`);
      if (name !== undefined && chars(name) > ATTACHMENT_NAME_MAX)
        throw bad(
          'attachmentName-is-too-long',
          `The file name has ${chars(name)} characters; ${ATTACHMENT_NAME_MAX} is the most.`,
        );
      if (att.size !== undefined && !(isInt(att.size) && att.size >= 0))
        throw malformed(`${at}.attachment.size should be a byte count.`);
      textIgnored = true; // the public docs: text is ignored when an attachment is present
    } else if (MEDIA_TYPES.has(type)) throw malformed(`${at} is ${type} content without an attachment.`);
    if (c.location !== undefined) {
      const loc = obj(c.location, `${at}.location`);
      for (const k of ['latitude', 'longitude'] as const) {
        const v = loc[k];
        if (v === undefined) throw bad(`${k}-not-specified`, `The location in ${at} has no ${k}.`);
        if (typeof v !== 'number' && typeof v !== 'bigint') throw malformed(`${at}.location.${k} should be a number.`);
        if (Math.abs(Number(v)) > (k === 'latitude' ? 90 : 180))
          throw bad('coordinates-out-of-range', `${at}.location.${k} ${v} is not on Earth.`);
      }
      untyped(loc.address, `${at}.location.address`);
    }
    if (c.listPicker !== undefined) {
      optList(obj(c.listPicker, `${at}.listPicker`).sections, `${at}.listPicker.sections`).forEach((s, n) => {
        const section = obj(s, `${at}.listPicker.sections[${n}]`);
        untyped(section.title, `${at}.listPicker.sections[${n}].title`);
        optList(section.items, `${at}.listPicker.sections[${n}].items`).forEach((it, m) => {
          const item = obj(it, `${at}.listPicker.sections[${n}].items[${m}]`);
          for (const k of ['title', 'subtitle']) {
            const v = optStr(item[k], `${at}.listPicker.sections[${n}].items[${m}].${k}`);
            if (v !== undefined && chars(v) > LIST_ITEM_MAX)
              throw bad(
                'template-parameter-is-not-valid',
                `List item ${k} "${v}" is longer than ${LIST_ITEM_MAX} characters.`,
              );
          }
        });
      });
    }
    for (const part of ['header', 'footer'])
      if (c[part] !== undefined && !choices.lenientTemplateFields)
        optStr(obj(c[part], `${at}.${part}`).text, `${at}.${part}.text`);
    if (c.keyboard !== undefined) {
      // The button limits hold for the whole template, so every row is counted together.
      const rows = list(obj(c.keyboard, `${at}.keyboard`).rows, `${at}.keyboard.rows`);
      const buttons = rows.flatMap((r, n) =>
        list(obj(r, `${at}.keyboard.rows[${n}]`).buttons, `${at}.keyboard.rows[${n}].buttons`).map((b, m) => {
          const button = obj(b, `${at}.keyboard.rows[${n}].buttons[${m}]`),
            where = `${at}.keyboard.rows[${n}].buttons[${m}]`;
          for (const k of ['text', 'url', 'phone']) untyped(button[k], `${where}.${k}`);
          const payload = optStr(button.payload, `${where}.payload`);
          if (payload !== undefined && chars(payload) > PAYLOAD_MAX)
            throw bad(
              'button-validation-error',
              `A quick-reply payload may hold ${PAYLOAD_MAX} characters, this one holds ${chars(payload)}.`,
            );
          return str(button.buttonType, `${where}.buttonType`);
        }),
      );
      const count = (t: string) => buttons.filter((b) => b === t).length;
      if (buttons.length > BUTTONS_MAX)
        throw bad('button-validation-error', `${buttons.length} buttons given, a template takes up to ${BUTTONS_MAX}.`);
      if (count('URL') > URL_BUTTONS_MAX)
        throw bad(
          'button-validation-error',
          `${count('URL')} URL buttons given, a template takes up to ${URL_BUTTONS_MAX}.`,
        );
      if (count('PHONE') > PHONE_BUTTONS_MAX)
        throw bad(
          'button-validation-error',
          `${count('PHONE')} PHONE buttons given, a template takes up to ${PHONE_BUTTONS_MAX}.`,
        );
    }
    const sharing = optBool(c.messageActivitySharing, `${at}.messageActivitySharing`);
    const marketing = optBool(c.useMarketingMessagesApi, `${at}.useMarketingMessagesApi`);
    if (sharing === true && (choices.absentIsFalse ? marketing !== true : marketing === false))
      throw bad(
        'mm-api-options-invalid-combination',
        'Activity sharing needs the Marketing Messages API to be switched on.',
      );
  }
  noText();
  if (text && !textIgnored && !TEMPLATES.some((t) => t.test(text)))
    throw bad(
      'matched-template-not-found',
      `No approved ${key.replace('Content', '')} template fits the text of ${at}.`,
    );
}

/** POST /api/cascade/schedule. */
function scheduleCascade(state: State, apiKey: string, body: Json): Json {
  const req = obj(body, 'the body');
  const requestId = str(req.requestId, 'requestId');
  if (state.choices.uuidRequestIds && !UUID.test(requestId))
    throw bad('request-id-is-not-valid', `requestId "${requestId}" is no UUID.`);
  if (!isInt(req.cascadeId)) throw malformed('cascadeId should be an integer.');
  const cascadeId = req.cascadeId;
  const filter = obj(req.subscriberFilter, 'subscriberFilter');
  str(filter.address, 'subscriberFilter.address');
  if (!ADDRESS_TYPES.has(str(filter.type, 'subscriberFilter.type')))
    throw malformed('subscriberFilter.type is no address type.');
  const startTime = optStr(req.startTime, 'startTime');
  if (startTime !== undefined && !isDateTime(startTime))
    throw bad('start-time-is-not-valid', `startTime "${startTime}" is no ISO 8601 date-time with a zone.`);
  const content = obj(req.content, 'content');
  const entries = CONTENT_KEYS.filter(([k]) => content[k] !== undefined).map(([k, channel]) => ({
    key: k,
    channel,
    body: obj(content[k], `content.${k}`),
  }));
  if (state.requestIds.has(requestId))
    throw bad('requestId-is-not-unique', `A message with requestId ${requestId} was accepted earlier.`);
  const stages = typeof cascadeId === 'number' ? CASCADES.get(cascadeId) : undefined;
  if (!stages) throw bad('cascade-not-found', `This account has no cascade numbered ${cascadeId}.`);
  if (entries.length === 0) throw bad('content-not-specified', 'The request carries no content for any channel.');
  // Rules 1-3: every stage needs content, no content for a channel without a stage; all reported at once.
  const own = state.choices.ownViolationKeys;
  const id = `${own ? 'template' : 'cascadeTemplateId'}:${grouped(cascadeId as number)}`;
  const foreign = entries
    .filter((e) => !stages.some((s) => s.channel === e.channel))
    .map(
      (e) => `This channel is not part of the cascade [${id};${own ? 'channel' : 'contentChannelType'}:${e.channel}]`,
    );
  const missing = stages
    .filter((s) => !entries.some((e) => e.channel === s.channel))
    .map(
      (s) =>
        `This stage was given no content [${id};${own ? 'stage' : 'stageUUID'}:${s.uuid};${own ? 'channel' : 'channelType'}:${s.channel}]`,
    );
  if (foreign.length > 0)
    throw bad(
      'cascade-scheduling-request-is-not-valid',
      `The content does not fit the cascade. Violations: ${[...foreign, ...missing].join('; ')}`,
    );
  if (missing.length > 0)
    throw bad(
      state.choices.missingAsNotValid
        ? 'cascade-scheduling-request-is-not-valid'
        : 'request-doesn’t-contain-content-for-all-cascade-stages',
      `Some cascade stages lack content. Violations: ${missing.join('; ')}`,
    );
  for (const e of entries) checkContent(e.key, e.body, state.choices);
  if (apiKey === API_KEY_NO_BALANCE)
    throw bad('out-of-balance', 'There is no money left on this account for any channel.');
  state.requestIds.add(requestId);
  const messageId = state.nextMessageId++;
  state.report?.(startTime === undefined ? Date.now() : instant(startTime), () =>
    deliver(state, { requestId, messageId, cascadeId: String(cascadeId), stages, filter, content }),
  );
  return { requestId, messageId };
}

/** Epoch ms of a date-time isDateTime accepted (a leap second, which Date.parse refuses, means now). */
function instant(s: string): number {
  const at = Date.parse(
    s
      .replace(/^(.{10})[tT ]/, '$1T')
      .replace(/[zZ]$/, 'Z')
      .replace(/([+-]\d{2}):?(\d{2})?$/, (_m, h: string, m?: string) => `${h}:${m ?? '00'}`),
  );
  return Number.isNaN(at) ? Date.now() : at;
}

/**
 * The delivery result of an accepted message, decided when it is sent. This implementation's rules
 * (section 7.3): a PHONE address that is not 10-15 digits (a leading + allowed) fails with
 * error-address-format; a text over MAX_TEXT characters fails with too-long-message; the same content to the same
 * recipient over the same cascade within 5
 * minutes of a delivered one fails with duplicated; anything else is delivered. Either way the
 * first stage reports (the cascade's stages share the address, so a later one cannot do better).
 */
function deliver(
  state: State,
  m: {
    requestId: string;
    messageId: number;
    cascadeId: string;
    stages: ReadonlyArray<{ uuid: string }>;
    filter: Obj;
    content: Obj;
  },
): Obj {
  const now = Date.now();
  for (const [k, at] of state.sentAt) if (now - at >= DUPLICATE_WINDOW_MS) state.sentAt.delete(k);
  const address = String(m.filter.address),
    type = String(m.filter.type);
  const key = JSON.stringify([m.cascadeId, type, address, m.content], (_k, v) =>
    typeof v === 'bigint' ? v.toString() : v,
  );
  let error: string | null = null,
    comment: string | null = null;
  if (type === 'PHONE' && !/^\+?\d{10,15}$/.test(address)) {
    error = 'error-address-format';
    comment = `"${address}" is no phone number of 10 to 15 digits.`;
  } else if (Object.values(m.content).some((c) => /\.invalid$/.test(hostOf((c as Obj | null)?.attachment)))) {
    error = 'media-request-failed';
    comment = 'The attached file could not be loaded.';
  } else if (
    Object.values(m.content).some(
      (c) => typeof (c as Obj | null)?.text === 'string' && [...String((c as Obj).text)].length > MAX_TEXT,
    )
  ) {
    error = 'too-long-message';
    comment = `A text is longer than the ${MAX_TEXT} characters a channel takes.`;
  } else if (now - (state.sentAt.get(key) ?? Number.NEGATIVE_INFINITY) < DUPLICATE_WINDOW_MS) {
    error = 'duplicated';
    comment = 'The same content went to this recipient less than 5 minutes ago.';
  } else state.sentAt.set(key, now);
  return {
    requestId: m.requestId,
    messageId: m.messageId,
    cascadeId: m.cascadeId, // the numeric-string form the public docs also show
    cascadeStageUUID: m.stages[0]?.uuid ?? '',
    subject: SUBJECT,
    subjectId: SUBJECT_ID,
    status: error ? 'UNDELIVERED' : 'DELIVERED',
    statusAt: new Date(now).toISOString(),
    error,
    comment,
  };
}

type Route = { auth: 'token' | 'key'; run: (state: State, apiKey: string, body: Json) => Json | string | Plain };
const ROUTES = new Map<string, Route>([
  ['/api/v1/threads/close', { auth: 'token', run: (state, _key, body) => closeThreads(state, body) }],
  ['/api/subscribers/create', { auth: 'key', run: createSubscriber }],
  ['/api/cascade/schedule', { auth: 'key', run: scheduleCascade }],
]);

/** The body, or undefined when it is larger than the limit (the rest is read and dropped). */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size > 16 * MAX_BODY_BYTES) req.destroy(); // stop a sender that never ends
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined));
    req.on('close', () => resolve(undefined));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, payload: string, choices: Choices, headers = {}): void {
  const type = status >= 400 && choices.problemJson ? 'application/problem+json' : 'application/json; charset=utf-8';
  res.writeHead(status, {
    ...(payload === '' ? {} : { 'content-type': type }),
    ...headers,
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req);
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const route = ROUTES.get(path);
  if (!route) throw problem(404, 'not-found', `Nothing is served at ${path}.`);
  if (req.method !== 'POST')
    throw problem(405, 'method-not-allowed', `${path} takes POST requests only, ${req.method} was used.`);
  const apiKey = req.headers['x-api-key'];
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const allowed =
    route.auth === 'token' ? bearer === INTEGRATOR_TOKEN : apiKey === API_KEY || apiKey === API_KEY_NO_BALANCE;
  const given = route.auth === 'token' ? req.headers.authorization !== undefined : apiKey !== undefined;
  if (!given && state.choices.noCredentialForbidden)
    throw problem(403, 'forbidden', 'The request carries no credential; this operation needs one.');
  if (!allowed)
    throw problem(
      401,
      'auth-error',
      route.auth === 'token'
        ? 'A valid integrator bearer token is required.'
        : 'The x-api-key header is missing or not a known key.',
    );
  if (raw === undefined)
    throw problem(413, 'payload-too-large', `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json')
    throw problem(415, 'unsupported-media-type', 'Send the body as application/json.');
  const result = route.run(state, typeof apiKey === 'string' ? apiKey : '', parseJson(raw.toString('utf8')));
  if (result instanceof Plain)
    return send(res, 200, result.text, state.choices, { 'content-type': 'text/plain; charset=utf-8' });
  send(res, 200, typeof result === 'string' ? result : JSON.stringify(result), state.choices);
}

/** A token bucket per credential (x-api-key, else authorization): undefined while a token is left, else the ms to one. */
function rateLimiter(limit: Choices['rateLimit']): (req: IncomingMessage) => number | undefined {
  if (!limit) return () => undefined;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (req) => {
    const who = String(req.headers['x-api-key'] ?? req.headers.authorization ?? '');
    const now = performance.now();
    const b = buckets.get(who) ?? { tokens: limit.initial ?? limit.burst, at: now };
    b.tokens = Math.min(limit.burst, b.tokens + ((now - b.at) * limit.perSecond) / 1000);
    b.at = now;
    buckets.set(who, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return undefined;
    }
    return ((1 - b.tokens) * 1000) / limit.perSecond;
  };
}

export interface IndependentOptions {
  port?: number;
  /** Where status callbacks go; none are posted without it. */
  callbackUrl?: string;
  /** The waits before each repeat of a callback not answered with 200 (default: the public docs'). */
  retryDelaysMs?: readonly number[];
  /** The other legal answers to take (default: none). */
  choices?: Choices;
}

export async function startIndependent({
  port = 0,
  callbackUrl,
  retryDelaysMs = RETRY_DELAYS_MS,
  choices = {},
}: IndependentOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  const state = freshState(choices);
  // Callbacks: every wait is a timer in `timers` and every post listens to `closing`, so close() ends all.
  const timers = new Set<NodeJS.Timeout>();
  const closing = new AbortController();
  const later = (ms: number, run: () => void) => {
    if (closing.signal.aborted) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
  };
  const post = (url: string, payload: string, attempt: number): void =>
    void fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
      signal: AbortSignal.any([closing.signal, AbortSignal.timeout(POST_TIMEOUT_MS)]),
    })
      .then(async (res) => {
        await res.body?.cancel();
        return res.status === 200;
      })
      .catch(() => false)
      .then((ok) => {
        const wait = retryDelaysMs[attempt];
        if (!ok && wait !== undefined) later(wait, () => post(url, payload, attempt + 1));
      });
  if (callbackUrl)
    state.report = (at, result) => {
      const wait = Math.max(0, at - Date.now());
      if (wait > CALLBACK_HORIZON_MS) return;
      later(wait, () => {
        const payload = result();
        // The status on the way first, where so chosen: sent, no error yet.
        if (choices.eachStatus)
          post(callbackUrl, JSON.stringify({ ...payload, status: 'SENT', error: null, comment: null }), 0);
        post(callbackUrl, JSON.stringify(payload), 0);
      });
    };
  const limited = rateLimiter(choices.rateLimit);
  const server = createServer((req, res) => {
    const wait = limited(req);
    if (wait !== undefined) {
      req.resume(); // the body unread, the connection kept
      const detail = 'Too many requests for this credential; retry after the time Retry-After gives.';
      const body = JSON.stringify({ title: 'too-many-requests', status: 429, detail, traceId: randomUUID() });
      return send(res, 429, body, state.choices, { 'retry-after': String(Math.ceil(wait / 1000)) });
    }
    handle(state, req, res).catch((error: unknown) => {
      const p =
        error instanceof Problem
          ? error
          : problem(500, 'system-error', 'The service failed while handling the request.');
      if (res.headersSent || res.destroyed) return void res.destroy();
      send(
        res,
        p.status,
        JSON.stringify({ title: p.title, status: p.status, detail: p.detail, traceId: randomUUID() }),
        state.choices,
        // HTTP asks a 405 to say which methods the URL takes (RFC 9110, 15.5.6).
        p.status === 405 ? { allow: 'POST' } : {},
      );
    });
  });
  server.on('clientError', (_error, socket) => {
    const payload = JSON.stringify({
      title: 'bad-http-request',
      status: 400,
      detail: 'The HTTP request could not be parsed.',
    });
    if (socket.writable)
      socket.end(
        `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
      );
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
