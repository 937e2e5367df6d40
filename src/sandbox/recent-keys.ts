// A bounded memory of keys seen recently: requestIds taken, messages sent (the duplicate window).
// Each key is kept as a 16-byte hash, never as the text it stands for, for at most `windowMs`
// and at most `limit` keys (the oldest go first), so memory stays bounded whatever the traffic.
import { createHash } from 'node:crypto';

export interface Window {
  /** How long a key is remembered. */
  windowMs: number;
  /** How many keys are remembered at most. */
  limit: number;
}

const hash = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);

export class RecentKeys {
  // Insertion order is time order, so the expired and the oldest are at the front.
  private readonly seen = new Map<string, number>();

  constructor(private readonly window: Window) {}

  /** When `key` was added within the window, or undefined. */
  addedAt(key: string, now: number): number | undefined {
    this.prune(now);
    return this.seen.get(hash(key));
  }

  add(key: string, now: number): void {
    const h = hash(key);
    this.seen.delete(h);
    this.seen.set(h, now);
    this.prune(now);
  }

  get size(): number {
    return this.seen.size;
  }

  clear(): void {
    this.seen.clear();
  }

  private prune(now: number): void {
    for (const [key, at] of this.seen) {
      if (this.seen.size <= this.window.limit && now - at < this.window.windowMs) break;
      this.seen.delete(key);
    }
  }
}
