/**
 * @module platform/picture-cache
 * Per-link cache of profile-picture URLs (groups, own account) with a TTL, plus a bounded-concurrency map, so
 * GET /group does not refetch every picture on each call and never floods the platform with IQs.
 */

export class PictureCache {
  readonly #entries = new Map<string, { url: string; at: number }>()
  readonly #inflight = new Map<string, Promise<string>>()
  constructor(private readonly ttlMs: number, private readonly now: () => number = Date.now) {}

  /** Cached URL if fresh, else runs `fetch` once (concurrent callers share it). `fetch` must not throw. */
  async get(jid: string, fetch: () => Promise<string>): Promise<string> {
    const hit = this.#entries.get(jid)
    if (hit && this.now() - hit.at < this.ttlMs) return hit.url
    const running = this.#inflight.get(jid)
    if (running) return running
    const p = fetch().then(url => {
      if (this.ttlMs > 0) this.#entries.set(jid, { url, at: this.now() })
      return url
    }).finally(() => this.#inflight.delete(jid))
    this.#inflight.set(jid, p)
    return p
  }

  clear(): void {
    this.#entries.clear()
  }
}

/** `Promise.all(items.map(fn))` with at most `limit` calls running; keeps order. */
export async function mapWithConcurrency<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return out
}
