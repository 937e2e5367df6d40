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
    name: 'a SENT callback before each result',
    choices: { eachStatus: true },
    takes: { 'statuses-reported': 'each-status' },
  },
];

export const variants: Variant[] = [
  ...single,
  {
    name: 'every other answer at once',
    choices: Object.assign({}, ...single.map((v) => v.choices)),
    takes: Object.assign({}, ...single.map((v) => v.takes)),
  },
];
