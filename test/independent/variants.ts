// The independent implementation's variants: each takes other answers where the description allows several (the
// document's open points, `x-open-points`), so a test can run the suite against every legal implementation. `takes`
// names the open point and the answer each variant gives; the implementation as written takes some already.
import type { Choices } from './server.ts';

export interface Variant {
  name: string;
  choices: Choices;
  /** Open point id -> the answer this variant gives, where it is not the contract's decision. */
  takes: Record<string, string>;
}

const single: Variant[] = [
  {
    name: 'as written',
    choices: {},
    // 500 for every malformed property; its own codes and statuses for a refused subscriber.
    takes: { 'malformed-property': 'system-error', 'refusal-code': 'any-error' },
  },
  {
    name: 'errors as application/problem+json',
    choices: { problemJson: true },
    takes: { 'error-media-type': 'application/problem+json' },
  },
  {
    name: 'a repeated identifier listed each time',
    choices: { eachOccurrence: true },
    takes: { 'repeated-ids': 'each-occurrence' },
  },
  { name: 'result lists in reverse order', choices: { reversedLists: true }, takes: { 'result-order': 'any-order' } },
  {
    name: 'a left-out useMarketingMessagesApi read as false',
    choices: { absentIsFalse: true },
    takes: { 'absent-marketing-option': 'absent-is-false' },
  },
  {
    name: 'an empty 200 for a created subscriber',
    choices: { emptyCreated: true },
    takes: { 'created-body': 'no-body' },
  },
  {
    name: 'violations under keys of its own',
    choices: { ownViolationKeys: true },
    takes: { 'violation-keys': 'any-keys' },
  },
  { name: 'lengths in UTF-16 units', choices: { utf16Units: true }, takes: { characters: 'utf-16-units' } },
  {
    name: "a missing text reported after the channel's own rules",
    choices: { textLast: true },
    takes: { 'error-precedence': 'any-that-applies' },
  },
  {
    name: 'a request with no credential answered 403',
    choices: { noCredentialForbidden: true },
    takes: { 'missing-credential': 'any-error' },
  },
  {
    name: "a subscriber's lists of at most 50 items",
    choices: { maxListItems: 50 },
    takes: { 'array-sizes': 'client-error' },
  },
  {
    name: 'a SENT callback before each result',
    choices: { eachStatus: true },
    takes: { 'statuses-reported': 'each-status' },
  },
  {
    name: 'content only missing answered with the validation code',
    choices: { missingAsNotValid: true },
    takes: { 'error-precedence': 'any-that-applies' },
  },
  {
    name: 'every address unique across subscribers',
    choices: { uniqueAddresses: true },
    takes: { 'unique-addresses': 'every-address' },
  },
  {
    name: 'a created subscriber answered with 200 text/plain',
    choices: { textCreated: true },
    takes: { 'created-body': 'any-body' },
  },
  {
    name: 'a requestId that is no UUID refused',
    choices: { uuidRequestIds: true },
    takes: { 'request-id-form': 'uuid-only' },
  },
  { name: 'at most 100 threadIds', choices: { maxThreadIds: 100 }, takes: { 'thread-ids-count': 'a-limit' } },
  {
    // No open point: a wrong type at these fields refused is this contract's decision (`x-decided: [type]`).
    name: 'any type at the template fields no source types',
    choices: { lenientTemplateFields: true },
    takes: {},
  },
  {
    // Well below the suite's pace on any machine (a run sends 300+ requests with one key), yet each wait (Retry-After:
    // 1) refills the whole bucket: a few 429s a run, each waited out.
    name: 'a rate limit per credential, 429 with Retry-After past it',
    choices: { rateLimit: { perSecond: 100, burst: 100 } },
    takes: { 'rate-limit': 'too-many-requests' },
  },
];

export const variants: Variant[] = [
  ...single,
  {
    name: 'every other answer at once',
    // A limit the suite seldom meets: each 429 costs npm test a second (the variant alone meets it every run).
    choices: Object.assign({}, ...single.map((v) => v.choices), { rateLimit: { perSecond: 1000, burst: 200 } }),
    takes: Object.assign({}, ...single.map((v) => v.takes)),
  },
];
