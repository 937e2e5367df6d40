// The description's open points, read from the document: wherever the description allows more than one answer, the
// document says so where it applies, in an `x-open-points` map of `id -> {words, answers, decision}`. `answers` are
// the answers the description allows, `words` the description's words they rest on, and `decision` the one this
// contract takes (held under --profile strict only). The suite accepts every answer a point lists: a check names the
// point it reads, never an answer; a new legal answer is a line of YAML.
import { openapi } from './document.ts';
import { escapePointer } from './pointers.ts';

export interface OpenPoint {
  id: string;
  /** Where in the document the point is written. */
  pointer: string;
  /** The description's words the answers rest on. */
  words: string;
  /** Every answer the description allows. */
  answers: string[];
  /** The answer this contract decides on: the strict profile's, the sandbox's. */
  decision: string;
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** Every `x-open-points` map of a document, its entries checked: one that gets the form wrong fails, naming it. */
export function readOpenPoints(root: unknown): Map<string, OpenPoint> {
  const found = new Map<string, OpenPoint>();
  const visit = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const here = `${pointer}/${escapePointer(key)}`;
      if (key !== 'x-open-points') {
        visit(value, here);
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new Error(`${here}: expected a map of open point id -> {words, answers, decision}`);
      for (const [id, raw] of Object.entries(value as Record<string, any>)) {
        const at = `${here}/${escapePointer(id)}`;
        const answers: unknown = raw?.answers;
        if (!isText(raw?.words))
          throw new Error(`${at}/words: expected the description's words, got ${JSON.stringify(raw?.words)}`);
        if (
          !Array.isArray(answers) ||
          answers.length < 2 ||
          !answers.every(isText) ||
          new Set(answers).size !== answers.length
        )
          throw new Error(`${at}/answers: expected two or more distinct answers, got ${JSON.stringify(answers)}`);
        if (!answers.includes(raw.decision))
          throw new Error(`${at}/decision: expected one of ${answers.join(', ')}, got ${JSON.stringify(raw.decision)}`);
        if (found.has(id)) throw new Error(`${at}: open point "${id}" is also written at ${found.get(id)!.pointer}`);
        found.set(id, { id, pointer: at, words: raw.words.trim(), answers, decision: raw.decision });
      }
    }
  };
  visit(root, '#');
  return found;
}

let points: Map<string, OpenPoint> | undefined;

/** The bundled document's open points, by id. */
export const openPoints = (): ReadonlyMap<string, OpenPoint> => (points ??= readOpenPoints(openapi));

/**
 * The open point `id`, its answers checked against the ones its reader knows (`known`): the document may name an
 * answer only where some code knows what it means, or a check would silently refuse it.
 */
export function openPoint<A extends string>(
  id: string,
  known?: readonly A[],
): OpenPoint & { answers: A[]; decision: A } {
  const point = openPoints().get(id);
  if (!point) throw new Error(`the document has no open point "${id}" (an x-open-points entry)`);
  if (!known) return point as OpenPoint & { answers: A[]; decision: A };
  const unknown = point.answers.filter((a) => !(known as readonly string[]).includes(a));
  if (unknown.length)
    throw new Error(
      `${point.pointer}/answers: ${unknown.join(', ')} not known to the suite (known: ${known.join(', ')})`,
    );
  return point as OpenPoint & { answers: A[]; decision: A };
}

/** The open point written on the node at `pointer` (a response) that allows `answer`, if any. */
export const pointAt = (pointer: string, answer: string): OpenPoint | undefined =>
  [...openPoints().values()].find(
    (p) => p.pointer.startsWith(`${pointer}/x-open-points/`) && p.answers.includes(answer),
  );

/** The basis of a check that reads the point: where it is, and the description's words. */
export const pointBasis = (p: OpenPoint) => `${p.pointer} ("${p.words}")`;

/**
 * A fault against the point's decision where the answer `given` is another one it allows: what was expected, in words,
 * and the point as the fault's basis (what a reader of a strict run's failure needs to weigh it).
 */
export function againstDecision(p: OpenPoint, given?: string) {
  const others = p.answers.filter((a) => a !== p.decision);
  const allows =
    given && others.includes(given)
      ? `this answer takes "${given}", which the description allows too`
      : `the description allows ${others.map((a) => `"${a}"`).join(' or ')} too`;
  return {
    kind: 'decision' as const,
    basis: pointBasis(p),
    expects: `this contract's decision on the open point ${p.id} is "${p.decision}"; ${allows} (--profile described accepts it)`,
  };
}
