// The document's `x-violation-codes`, checked where it is read: a key of the wrong form fails at once, naming where it
// is and what is wrong, instead of a rule that silently never matches.
import { describe, expect, it } from 'vitest';
import { violationCodes } from '../src/core/schema-violations.ts';

const read = (table: unknown) => () => violationCodes('#/paths/~1x/post', { 'x-violation-codes': table });

describe('x-violation-codes', () => {
  it('reads each code with the fields and keywords that give it', () => {
    const [[code, [rule]]] = violationCodes('#/p', {
      'x-violation-codes': { 'comment-is-too-long': [{ field: '^/comment$', keywords: ['maxLength'] }] },
    }) as [[string, [(v: { field: string; keyword: string }) => boolean]]];
    expect(code).toBe('comment-is-too-long');
    expect(rule({ field: '/comment', keyword: 'maxLength' })).toBe(true);
    expect(rule({ field: '/comment', keyword: 'type' })).toBe(false);
    expect(rule({ field: '/comments', keyword: 'maxLength' })).toBe(false);
    expect(violationCodes('#/p', {})).toEqual([]);
  });

  it.each([
    [null, '#/paths/~1x/post/x-violation-codes: expected an object of code -> [{field, keywords}]'],
    [
      { 'no-such-code': [{ field: 'x' }] },
      '#/paths/~1x/post/x-violation-codes/no-such-code: not a code of KnownErrorCode',
    ],
    [{ 'comment-is-too-long': [] }, '/comment-is-too-long: expected a list of {field, keywords}'],
    [{ 'comment-is-too-long': [{ keywords: [] }] }, '/comment-is-too-long/0/field: expected a pattern of the field'],
    [{ 'comment-is-too-long': [{ field: '(' }] }, '/comment-is-too-long/0/field: not a pattern'],
    [
      { 'comment-is-too-long': [{ field: 'x', keywords: ['maxLenght'] }] },
      '/comment-is-too-long/0/keywords: ["maxLenght"] are no schema keywords',
    ],
  ])('refuses %j', (table, message) => {
    expect(read(table)).toThrow(message);
  });
});
