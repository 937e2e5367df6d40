// The document's open points (x-open-points): read from anywhere in the document, each entry's form checked, so a
// mistake in the YAML fails at once and names where it is; a reader that does not know an answer refuses it.
import { describe, expect, it } from 'vitest';
import { openPoint, openPoints, readOpenPoints } from '../src/core/open-points.ts';

const doc = (entry: unknown) => ({ paths: { '/a': { post: { responses: { '200': { 'x-open-points': entry } } } } } });

describe('open points', () => {
  it('are found wherever the document writes them, with their pointer', () => {
    const found = readOpenPoints(doc({ p: { words: 'Section 1: not shown.', answers: ['a', 'b'], decision: 'a' } }));
    expect(found.get('p')).toEqual({
      id: 'p',
      pointer: '#/paths/~1a/post/responses/200/x-open-points/p',
      words: 'Section 1: not shown.',
      answers: ['a', 'b'],
      decision: 'a',
    });
  });

  it.each([
    [
      'no words',
      { p: { answers: ['a', 'b'], decision: 'a' } },
      /x-open-points\/p\/words: expected the description's words/,
    ],
    [
      'one answer',
      { p: { words: 'w', answers: ['a'], decision: 'a' } },
      /p\/answers: expected two or more distinct answers/,
    ],
    ['a repeated answer', { p: { words: 'w', answers: ['a', 'a'], decision: 'a' } }, /p\/answers/],
    [
      'a decision not listed',
      { p: { words: 'w', answers: ['a', 'b'], decision: 'c' } },
      /p\/decision: expected one of a, b, got "c"/,
    ],
    ['a list, not a map', [{ words: 'w' }], /x-open-points: expected a map/],
  ])('refuse %s, naming where', (_name, entry, message) => {
    expect(() => readOpenPoints(doc(entry))).toThrow(message);
  });

  it('refuses an id written twice', () => {
    const entry = { words: 'w', answers: ['a', 'b'], decision: 'a' };
    const twice = { info: { 'x-open-points': { p: entry } }, ...doc({ p: entry }) };
    expect(() => readOpenPoints(twice)).toThrow(/open point "p" is also written at #\/info\/x-open-points\/p/);
  });

  it('a reader names the answers it knows: one it does not know fails, and so does a point the document lacks', () => {
    const [id, point] = [...openPoints()][0]!;
    expect(openPoint(id, point.answers).answers).toEqual(point.answers);
    expect(() => openPoint(id, [point.decision])).toThrow(/not known to the suite/);
    expect(() => openPoint('no-such-point')).toThrow(/the document has no open point "no-such-point"/);
  });

  it("every point of the document rests on the description's words (they name its section)", () => {
    expect(openPoints().size).toBeGreaterThanOrEqual(10);
    for (const p of openPoints().values()) expect(p.words, p.id).toMatch(/Section \d/);
  });
});
