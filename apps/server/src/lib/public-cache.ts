/**
 * A short-lived cache of public reads (home page data): every visitor of the home page asks the same questions.
 * Writers invalidate by key prefix; the TTL bounds how stale another process's copy can be.
 */
export class PublicCache {
  private entries = new Map<string, { value: unknown; expiresAt: number }>();
  private loading = new Map<string, Promise<unknown>>();

  constructor(
    private readonly ttlMs: number,
    /** Bounds memory when visitors vary the query (page numbers, filters). */
    private readonly maxEntries = 2000,
  ) {}

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > Date.now()) return entry.value as T;
    // one load per key at a time: a burst of visitors causes one query
    const pending = this.loading.get(key);
    if (pending) return pending as Promise<T>;
    const promise = load()
      .then((value) => {
        if (this.entries.size >= this.maxEntries) this.evict();
        this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
        return value;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, promise);
    return promise;
  }

  private evict() {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
  }

  /** Drops everything (after a gap in the notifications that invalidate it). */
  clear() {
    this.entries.clear();
  }

  invalidate(prefix: string) {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
