/**
 * Reads kept in memory for a short time, emptied whenever the rows behind them change: the
 * pattern of LinkCache (payment pages) and TokenCache (API authentication).
 * - `changed()` empties it at once: a write through this process calls it, and a NOTIFY from any
 *   process (a trigger, see migration 0012) calls it in every process that listens;
 * - an entry is used for `ttlMs` at most, should a notification be lost while the listening
 *   connection reconnects;
 * - a read that started before a change is not kept (the generation moved on meanwhile);
 * - only found values are kept (a scan of random keys cannot grow it), at most `maxEntries`.
 */
export class KeptReads<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The value kept under `key` (when `usable` accepts it), else `read()`'s, kept when found. */
  async get(key: string, read: () => Promise<V | undefined>, usable: (value: V) => boolean = () => true): Promise<V | undefined> {
    const kept = this.entries.get(key);
    if (kept && kept.until > this.clock() && usable(kept.value)) return kept.value;
    const generation = this.generation;
    const found = await read();
    if (found !== undefined && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value: found, until: this.clock() + this.ttlMs });
    } else this.entries.delete(key);
    return found;
  }

  /** The rows changed: forget every kept read. */
  changed(): void {
    this.generation++;
    this.entries.clear();
  }
}
