// The sandbox's in-memory state, built from fixtures and reset to them on demand.
import type { Fixtures, FixtureStage } from './fixtures.ts';
import { hashKey, RecentKeys, type Window } from './recent-keys.ts';

/** requestIds are remembered for a day, at most 100,000 of them (README: "Limits"). */
export const defaultRequestIdWindow: Window = { windowMs: 24 * 60 * 60 * 1000, limit: 100_000 };

/** Memory bounds of the sandbox (one vocabulary for startSandbox, createSandbox and the tests). */
export interface SandboxLimits {
  /** How long a requestId is remembered (default a day). */
  requestIdWindowMs?: number;
  /** How many requestIds are remembered at most (default 100,000). */
  requestIds?: number;
  /** How many messages the duplicate window remembers at most (default 100,000). */
  duplicateKeys?: number;
}

export interface Thread {
  id: number;
  state: 'open' | 'closed';
  failOnClose: boolean;
  /** The comment of the call that closed it, and when. */
  comment?: string;
  closedAt?: string;
}

export interface Subscriber {
  extUserId: string;
  request: unknown;
}

export interface Cascade {
  id: number;
  stages: FixtureStage[];
}

export class SandboxState {
  threads = new Map<number, Thread>();
  subscribers = new Map<string, Subscriber>();
  /** requestIds taken by accepted requests, within the window; the fixtures' used ones are taken for good. */
  private readonly requestIds: RecentKeys;
  private fixtureRequestIds = new Set<string>();
  /** The requestId checked last, hashed: taking it once its request passed every rule needs no second hash. */
  private checked: { requestId: string; hashed: string } | undefined;
  cascades = new Map<number, Cascade>();
  apiKeys = new Map<string, { balance: number }>();
  parameters = new Map<string, Fixtures['parameters'][number]>();
  tags = new Set<string>();
  templates: Array<{ channel: string; pattern: RegExp }> = [];

  constructor(
    readonly fixtures: Fixtures,
    limits: SandboxLimits = {},
  ) {
    this.requestIds = new RecentKeys({
      windowMs: limits.requestIdWindowMs ?? defaultRequestIdWindow.windowMs,
      limit: limits.requestIds ?? defaultRequestIdWindow.limit,
    });
    this.reset();
  }

  requestIdTaken(requestId: string, now: number): boolean {
    if (this.fixtureRequestIds.has(requestId)) return true;
    this.checked = { requestId, hashed: hashKey(requestId) };
    return this.requestIds.hashedAddedAt(this.checked.hashed, now) !== undefined;
  }

  takeRequestId(requestId: string, now: number): void {
    const hashed = this.checked?.requestId === requestId ? this.checked.hashed : hashKey(requestId);
    this.checked = undefined;
    this.requestIds.hashedAdd(hashed, now);
  }

  /** How many requestIds are taken now. */
  get usedRequestIds(): number {
    return this.fixtureRequestIds.size + this.requestIds.size;
  }

  reset(): void {
    const f = this.fixtures;
    this.threads = new Map(
      f.threads.map((t) => [t.id, { id: t.id, state: t.state, failOnClose: t.failOnClose ?? false }]),
    );
    this.subscribers = new Map(f.subscribers.map((id) => [id, { extUserId: id, request: null }]));
    this.fixtureRequestIds = new Set(f.usedRequestIds);
    this.requestIds.clear();
    this.cascades = new Map(f.cascades.map((c) => [c.id, c]));
    this.apiKeys = new Map(f.apiKeys.map((k) => [k.key, { balance: k.balance }]));
    this.parameters = new Map(f.parameters.map((p) => [p.name, p]));
    this.tags = new Set(f.tags);
    this.templates = Object.entries(f.templates).flatMap(([channel, list]) =>
      (list ?? []).map((t) => ({ channel, pattern: templatePattern(t) })),
    );
  }

  /** Whether `text` matches one of the account's templates for `channel` (true when it has none). */
  matchesTemplate(channel: string, text: string | undefined): boolean {
    let channelHasTemplates = false;
    for (const t of this.templates) {
      if (t.channel !== channel) continue;
      if (text !== undefined && t.pattern.test(text)) return true;
      channelHasTemplates = true;
    }
    return !channelHasTemplates;
  }
}

const patterns = new Map<string, RegExp>();

/**
 * "Your order {{1}} is ready." -> /^Your order .+ is ready\.$/s, compiled once per template (they come from the
 * fixtures, so this stays small).
 */
export function templatePattern(template: string): RegExp {
  const known = patterns.get(template);
  if (known) return known;
  const parts = template.split(/\{\{\s*\d+\s*\}\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`^${parts.join('.+')}$`, 's');
  patterns.set(template, pattern);
  return pattern;
}
