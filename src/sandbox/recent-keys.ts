// A bounded memory of keys seen recently: requestIds taken, messages sent (the duplicate window).
// Each key is kept as a 16-byte hash, never as the text it stands for, for at most `windowMs`
// and at most `limit` keys (the oldest go first), so memory stays bounded whatever the traffic.
import { hashKey } from '../core/hash-key.ts';

export { hashKey };

export interface Window {
  /** How long a key is remembered. */
  windowMs: number;
  /** How many keys are remembered at most. */
  limit: number;
}

export class RecentKeys {
  // Insertion order is time order, so the expired and the oldest are at the front.
  private readonly seen = new Map<string, number>();
  /**
   * Where pruning stopped: a live iterator over `seen` and the entry it read last (the oldest
   * kept). Each prune goes on from there. A new iterator each time would walk again over every
   * deleted slot at the front of the Map: once the window was full, that made each request cost
   * more the longer the sandbox ran (about 60 µs more at 150,000 requests).
   */
  private cursor: Iterator<[string, number]> | undefined;
  private oldest: [string, number] | undefined;

  constructor(private readonly window: Window) {}

  /** When `key` was added within the window, or undefined. */
  addedAt(key: string, now: number): number | undefined {
    return this.hashedAddedAt(hashKey(key), now);
  }

  /** addedAt of a key already hashed with hashKey. */
  hashedAddedAt(hashed: string, now: number): number | undefined {
    this.prune(now);
    return this.seen.get(hashed);
  }

  /** Whether `key` was added within the window; if not, adds it now. One hash for both. */
  seenOrAdd(key: string, now: number): boolean {
    this.prune(now);
    const h = hashKey(key);
    if (this.seen.has(h)) return true;
    this.seen.set(h, now);
    this.prune(now);
    return false;
  }

  add(key: string, now: number): void {
    this.hashedAdd(hashKey(key), now);
  }

  /** add of a key already hashed with hashKey. */
  hashedAdd(hashed: string, now: number): void {
    if (this.seen.delete(hashed)) this.restartPrune(); // the key moves to the end: `oldest` may be it
    this.seen.set(hashed, now);
    this.prune(now);
  }

  get size(): number {
    return this.seen.size;
  }

  clear(): void {
    this.seen.clear();
    this.restartPrune();
  }

  private restartPrune(): void {
    this.cursor = undefined;
    this.oldest = undefined;
  }

  /** Forgets from the front: the expired, and the oldest while there are more than `limit`. */
  private prune(now: number): void {
    for (;;) {
      if (this.oldest === undefined) {
        this.cursor ??= this.seen.entries();
        const next = this.cursor.next();
        if (next.done) {
          this.restartPrune(); // empty; a done iterator never sees later entries
          return;
        }
        this.oldest = next.value;
      }
      const [key, at] = this.oldest;
      if (this.seen.size <= this.window.limit && now - at < this.window.windowMs) return;
      this.seen.delete(key);
      this.oldest = undefined;
    }
  }
}
