/**
 * @module http/limits/token-bucket
 * Token buckets keyed by a string (a client address, a session id): `burst` tokens at most, refilled at
 * `perSecond`. `take` spends one token or says how long until the next one. Full buckets are dropped now and then
 * so keys seen once (one-off clients, deleted sessions) do not pile up.
 *
 * @example
 * const buckets = new TokenBuckets({ perSecond: 10, burst: 50 })
 * const wait = buckets.take(sessionId) // 0 = allowed, else ms until a token is back
 */

export interface TokenBucketOptions {
  /** Tokens added per second. */
  perSecond: number
  /** Bucket size: how many requests may come at once after a quiet period. */
  burst: number
  now?: () => number
}

interface Bucket {
  tokens: number
  at: number
}

/** Above this many keys, full buckets are swept on the next take. */
const SWEEP_ABOVE = 10_000

export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>()
  readonly #perMs: number
  readonly #burst: number
  readonly #now: () => number

  constructor({ perSecond, burst, now = Date.now }: TokenBucketOptions) {
    this.#perMs = perSecond / 1000
    this.#burst = burst
    this.#now = now
  }

  /** Spends a token for `key`: 0 when allowed, else the milliseconds until one is available (nothing spent). */
  take(key: string): number {
    const t = this.#now()
    if (this.#buckets.size > SWEEP_ABOVE) this.#sweep(t)
    const b = this.#buckets.get(key) ?? { tokens: this.#burst, at: t }
    b.tokens = Math.min(this.#burst, b.tokens + (t - b.at) * this.#perMs)
    b.at = t
    this.#buckets.set(key, b)
    if (b.tokens < 1) return Math.ceil((1 - b.tokens) / this.#perMs)
    b.tokens -= 1
    return 0
  }

  /** What `take` would answer for `key`, spending nothing: for a request that needs a token of two buckets. */
  wait(key: string): number {
    const b = this.#buckets.get(key)
    if (b === undefined) return 0
    const tokens = Math.min(this.#burst, b.tokens + (this.#now() - b.at) * this.#perMs)
    return tokens < 1 ? Math.ceil((1 - tokens) / this.#perMs) : 0
  }

  #sweep(t: number): void {
    for (const [key, b] of this.#buckets)
      if (b.tokens + (t - b.at) * this.#perMs >= this.#burst) this.#buckets.delete(key)
  }
}
