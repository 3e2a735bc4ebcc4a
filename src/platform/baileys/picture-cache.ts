/**
 * @module platform/baileys/picture-cache
 * Per-link cache of profile-picture URLs (groups, own account) with a TTL, plus a bounded-concurrency map, so
 * GET /group does not refetch every picture on each call and never floods the platform with IQs.
 */
import type { WASocket } from '@whiskeysockets/baileys'
import { iqErrorCode } from './query.js'

export class PictureCache {
  readonly #entries = new Map<string, { url: string; at: number }>()
  readonly #inflight = new Map<string, Promise<string>>()
  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Cached URL if fresh, else runs `fetch` once (concurrent callers share it). `fetch` answers the URL, '' for "no
   * picture" (cached like a URL), or undefined when it could not tell (timeout, dropped connection): that answer is
   * '' for now and not cached, so one slow moment does not blank a picture for a whole TTL. `fetch` must not throw.
   */
  async get(jid: string, fetch: () => Promise<string | undefined>): Promise<string> {
    const hit = this.#entries.get(jid)
    if (hit && this.now() - hit.at < this.ttlMs) return hit.url
    const running = this.#inflight.get(jid)
    if (running) return running
    const p: Promise<string> = fetch()
      .then(url => {
        if (url === undefined) return ''
        // not when forget() ran meanwhile: this answer may predate the change
        if (this.ttlMs > 0 && this.#inflight.get(jid) === p) this.#entries.set(jid, { url, at: this.now() })
        return url
      })
      .finally(() => {
        if (this.#inflight.get(jid) === p) this.#inflight.delete(jid)
      })
    this.#inflight.set(jid, p)
    return p
  }

  /** Drops one entry (its picture was set or removed); the next `get` asks the platform again. */
  forget(jid: string): void {
    this.#entries.delete(jid)
    this.#inflight.delete(jid)
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

/** An IQ error that means "there is no picture for you to see": no picture (404), or hidden by privacy (401/403). */
const NO_PICTURE_CODES = new Set([401, 403, 404])

/**
 * One picture lookup for the cache: the URL, '' when the platform says there is none, undefined when it could not
 * tell (Baileys answers a timed-out query with undefined; a dropped connection throws without an IQ code).
 */
export async function fetchPictureUrl(
  sock: Pick<WASocket, 'profilePictureUrl'>,
  jid: string,
  timeoutMs: number,
): Promise<string | undefined> {
  try {
    return (await sock.profilePictureUrl(jid, 'image', timeoutMs)) || undefined
  } catch (err) {
    const code = iqErrorCode(err)
    return code !== undefined && NO_PICTURE_CODES.has(code) ? '' : undefined
  }
}
