// The sandbox README's list of its default fixtures (src/sandbox/fixtures.json): the credentials and
// balances, the cascades with their stages and the content each needs, the threads with their states,
// the subscribers. Written between the README's `<!-- fixtures:start -->` and `<!-- fixtures:end -->`
// by `npm run build:generated`; test/sandbox-readme.test.ts fails when the README differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolvePointer } from '../core/document.ts';
import { documentOperations } from '../core/examples.ts';
import type { OperationId } from '../core/meta.ts';
import type { CloseThreadsResult, KnownDeliveryErrorCode, KnownErrorCode } from '../core/types.ts';
import { projectRoot } from '../paths.ts';
import { contentKeyOf } from '../sandbox/channels.ts';
import type { Fixtures } from '../sandbox/fixtures.ts';
import defaultFixtures from '../sandbox/fixtures.json' with { type: 'json' };

export const sandboxReadmePath = join(projectRoot, 'src/sandbox/README.md');
export const startMarker =
  '<!-- fixtures:start: written by `npm run build:generated` (src/build/sandbox-readme.ts) from fixtures.json; edit that file, not this list -->';
export const endMarker = '<!-- fixtures:end -->';

const code = (text: string | number) => `\`${text}\``;
/** A code or a result list the document defines, written as code: tsc refuses one the document no longer has. */
const known = (name: KnownErrorCode | KnownDeliveryErrorCode | keyof CloseThreadsResult) => code(name);
const list = (items: Array<string | number>) => items.map(code).join(', ');
type Cascade = Fixtures['cascades'][number];

/** An operation's name as the docs page shows it: its summary ("Schedule cascade message"). */
const summaryOf = (op: { pointer: string; operationId: string }) =>
  String((resolvePointer(op.pointer) as { summary?: string }).summary ?? op.operationId);

/** The operations that take the security scheme `scheme`. */
const operationsOf = (scheme: string) =>
  documentOperations()
    .filter((op) => op.security.includes(scheme))
    .map(summaryOf)
    .join(', ');

/** The channels whose scheduled TEXT content must match one of the account's templates. */
const templated = (fixtures: Fixtures) =>
  new Set(Object.entries(fixtures.templates).flatMap(([channel, texts]) => (texts?.length ? [channel] : [])));

/**
 * What the README shows of the balance check, which schedule cascade makes last: a request from the account without
 * balance that passes every other check (a cascade whose content needs no account template), and one that stops
 * earlier, at the content check (a cascade of several stages, sent content for its last stage alone).
 */
export function balanceExample(fixtures: Fixtures = defaultFixtures as Fixtures) {
  const noBalance = fixtures.apiKeys.find((k) => k.balance <= 0)?.key;
  const needsTemplate = templated(fixtures);
  const plain = fixtures.cascades.find((c) => c.stages.every((s) => !needsTemplate.has(s.channel)));
  const several = fixtures.cascades.find((c) => c.stages.length > 1);
  if (!noBalance || !plain) return undefined;
  return {
    apiKey: noBalance,
    outOfBalance: { cascadeId: plain.id, content: plain.stages.map((s) => contentKeyOf(s.channel)) },
    contentFirst: several && {
      cascadeId: several.id,
      content: [contentKeyOf(several.stages.at(-1)!.channel)],
      missing: several.stages.slice(0, -1).map((s) => contentKeyOf(s.channel)),
    },
  };
}

/** What a cascade's stages make of a message beyond its content keys. */
function cascadeNotes(cascade: Cascade, needsTemplate: Set<string>): string {
  const notes: string[] = [];
  for (const channel of new Set(cascade.stages.map((s) => s.channel)))
    if (needsTemplate.has(channel))
      notes.push(`${code(contentKeyOf(channel))} \`TEXT\` must match a ${channel} template (below)`);
  for (const [i, stage] of cascade.stages.entries()) {
    const which = cascade.stages.length > 1 ? `stage ${i + 1}: ` : '';
    if (stage.subjectActive === false)
      notes.push(
        `${which}sender ${stage.subject} is not activated: delivery fails with ${known('error-subject-unknown')}`,
      );
    if (stage.templates?.length)
      notes.push(
        `${which}delivers only a text that matches ${list(stage.templates)}: another fails with ${known('not-template-match')}`,
      );
  }
  return notes.join('; ');
}

/** The README's section, between its markers (markers included). */
export function fixturesSection(fixtures: Fixtures = defaultFixtures as Fixtures): string {
  const apiKeyScheme = resolvePointer('#/components/securitySchemes/apiKey') as { name: string };
  const needsTemplate = templated(fixtures);
  const summaries = Object.fromEntries(documentOperations().map((op) => [op.operationId, summaryOf(op)])) as Record<
    OperationId,
    string
  >;
  const { scheduleCascade: schedule, closeThreads: close, createSubscriber: create } = summaries;
  const lines: string[] = [
    startMarker,
    '### The default fixtures',
    "What a fresh (or reset) sandbox holds when it is given no fixtures. The credentials are the sandbox's public test values.",
    '',
    '| credential | send it as | balance | for |',
    '|---|---|---|---|',
    ...fixtures.apiKeys.map(
      ({ key, balance }) =>
        `| API key ${code(key)} | ${code(`${apiKeyScheme.name}: ${key}`)} | ${
          balance > 0 ? String(balance) : `**${balance}: no balance**, ${schedule} answers ${known('out-of-balance')}`
        } | ${operationsOf('apiKey')} |`,
    ),
    ...fixtures.integratorTokens.map(
      (token) =>
        `| integrator token ${code(token)} | ${code(`Authorization: Bearer ${token}`)} | (none) | ${operationsOf('integratorToken')} |`,
    ),
    '',
  ];
  const example = balanceExample(fixtures);
  if (example) {
    const { apiKey, outOfBalance, contentFirst } = example;
    lines.push(
      `${schedule} checks the balance last: a request from ${code(apiKey)} gets ${known('out-of-balance')} only when it passes every other check, content for every stage of its cascade first. Cascade ${outOfBalance.cascadeId} with content ${list(outOfBalance.content)} gets ${known('out-of-balance')}${
        contentFirst
          ? `; cascade ${contentFirst.cascadeId} with ${list(contentFirst.content)} alone gets ${known('request-doesn’t-contain-content-for-all-cascade-stages')} (it needs ${list(contentFirst.missing)} too), whatever the balance`
          : ''
      }.`,
      '',
    );
  }
  lines.push(
    `Cascades (\`cascadeId\` of ${schedule}): \`content\` holds an entry for each stage's channel (else ${known('request-doesn’t-contain-content-for-all-cascade-stages')}) and none for another channel (else ${known('cascade-scheduling-request-not-valid')}). The stages, in the order a message goes through them, each as channel (sender signature, its id):`,
    '',
    '| cascade | stages | content it needs | also |',
    '|---|---|---|---|',
    ...fixtures.cascades.map(
      (cascade) =>
        `| ${cascade.id} | ${cascade.stages.map((s) => `${s.channel} (${s.subject}, ${s.subjectId})`).join(' → ')} | ${list(
          [...new Set(cascade.stages.map((s) => contentKeyOf(s.channel)))],
        )} | ${cascadeNotes(cascade, needsTemplate)} |`,
    ),
    '',
  );
  const templates = Object.entries(fixtures.templates).filter(([, texts]) => texts?.length);
  if (templates.length)
    lines.push(
      `The account's templates (scheduled \`TEXT\` content of the channel matches one, \`{{n}}\` any text, or gets ${known('matched-template-not-found')}): ${templates
        .map(([channel, texts]) => `${channel} ${list(texts!)}`)
        .join('; ')}.`,
      '',
    );
  // Threads with the same state and behaviour, one row.
  const groups = new Map<string, number[]>();
  for (const thread of fixtures.threads) {
    const answer =
      thread.state === 'closed'
        ? `closed | ${known('already_resolved_threads')}`
        : thread.failOnClose
          ? `open | ${known('not_resolved_due_to_system_error')}; it stays open`
          : `open | ${known('resolved_threads')}; closed from then on`;
    groups.set(answer, [...(groups.get(answer) ?? []), thread.id]);
  }
  lines.push(
    `Threads (\`threadIds\` of ${close}); any other id is in ${known('not_existing_threads')}:`,
    '',
    `| threads | state | ${close} reports them in |`,
    '|---|---|---|',
    ...[...groups].map(([answer, ids]) => `| ${ids.join(', ')} | ${answer} |`),
    '',
    `Subscribers (${create}): the \`EXT_USER_ID\` ${fixtures.subscribers.length === 1 ? 'address' : 'addresses'} ${list(
      fixtures.subscribers,
    )} ${fixtures.subscribers.length === 1 ? 'exists' : 'exist'} already (creating ${
      fixtures.subscribers.length === 1 ? 'it' : 'one'
    } again is ${known('subscriber-already-exists')}). Parameters: ${fixtures.parameters
      .map((p) => `${code(p.name)} (${p.type}${p.values ? `: ${p.values.join(', ')}` : ''})`)
      .join(', ')}. Tags: ${list(fixtures.tags)}.`,
    '',
    `Used requestIds (${known('requestId-is-not-unique')}): ${list(fixtures.usedRequestIds)}.`,
    endMarker,
  );
  return lines.join('\n');
}

/** The README with its fixtures section as the generator writes it. */
export function withFixturesSection(readme: string, section = fixturesSection()): string {
  const start = readme.indexOf('<!-- fixtures:start');
  const end = readme.indexOf(endMarker);
  if (start < 0 || end < start)
    throw new Error(
      `${sandboxReadmePath}: no "<!-- fixtures:start ... -->" ... "${endMarker}" markers to write between`,
    );
  return readme.slice(0, start) + section + readme.slice(end + endMarker.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const readme = readFileSync(sandboxReadmePath, 'utf8');
  const written = withFixturesSection(readme);
  if (written !== readme) writeFileSync(sandboxReadmePath, written);
  console.log(`${written === readme ? 'up to date' : 'wrote'}: the default fixtures in src/sandbox/README.md`);
}
