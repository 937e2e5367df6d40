// What the README's list of the default fixtures (src/build/sandbox-readme.ts) tells a user, the
// sandbox answers: the account without balance gets out-of-balance on every cascade sent content
// for exactly the keys listed for it (the balance is checked last), and content for a stage left
// out stops the request earlier, whatever the balance; the README's own example included.
import { beforeEach, describe, expect, it } from 'vitest';
import { balanceExample } from '../../src/build/sandbox-readme.ts';
import { examplePair } from '../../src/core/examples.ts';
import { contentKeyOf } from '../../src/sandbox/channels.ts';
import { credentials, fixtures, post, useSandbox } from '../helpers/sandbox.ts';

const sandbox = useSandbox();
beforeEach(() => sandbox.state.reset());

/** The answers the document's examples give: no balance, and content missing for a stage. */
const answerOf = (name: string) => {
  const pair = examplePair('scheduleCascade', name);
  return `${pair.status} ${(pair.response as { title: string }).title}`;
};
const outOfBalance = answerOf('outOfBalance');
const contentMissing = answerOf('contentMissingForStages');

let n = 0;
/** A TEXT for the channel: one of the account's templates where it has some. */
const text = (channel: string) =>
  (fixtures.templates[channel as keyof typeof fixtures.templates]?.[0] ?? 'Hello').replace(/\{\{\d+\}\}/g, '1234');
const schedule = async (cascadeId: number, keys: string[], apiKey = credentials.apiKeyNoBalance!) => {
  const channels = new Map(
    fixtures.cascades.find((c) => c.id === cascadeId)!.stages.map((s) => [contentKeyOf(s.channel), s.channel]),
  );
  const body = {
    requestId: `bbbbbbbb-9c0b-4b1e-8f3a-${String(++n).padStart(12, '0')}`,
    cascadeId,
    subscriberFilter: { address: '79001234567', type: 'PHONE' },
    content: Object.fromEntries(keys.map((key) => [key, { contentType: 'TEXT', text: text(channels.get(key) ?? '') }])),
  };
  const answer = await post(sandbox.url, '/api/cascade/schedule', body, { 'x-api-key': apiKey });
  return `${answer.status} ${answer.body?.title ?? ''}`.trim();
};

describe('the README list of the default fixtures is what the sandbox answers', () => {
  it.for(fixtures.cascades.map((c) => [c.id, c] as const))(
    'cascade %i: its listed content gets out-of-balance without balance, and 200 with; any key less stops earlier',
    async ([, cascade]) => {
      const keys = [...new Set(cascade.stages.map((s) => contentKeyOf(s.channel)))];
      expect(await schedule(cascade.id, keys)).toBe(outOfBalance);
      expect(await schedule(cascade.id, keys, credentials.apiKey)).toBe('200');
      if (keys.length > 1)
        for (const left of keys)
          expect(
            await schedule(
              cascade.id,
              keys.filter((k) => k !== left),
            ),
          ).toBe(contentMissing);
    },
  );

  it("the README's example: out-of-balance, and the same cascade with one stage's content alone", async () => {
    const example = balanceExample()!;
    expect(example.apiKey).toBe(credentials.apiKeyNoBalance);
    expect(await schedule(example.outOfBalance.cascadeId, example.outOfBalance.content)).toBe(outOfBalance);
    const first = example.contentFirst!;
    expect(await schedule(first.cascadeId, first.content)).toBe(contentMissing);
    expect(await schedule(first.cascadeId, [...first.content, ...first.missing])).toBe(outOfBalance);
  });
});
