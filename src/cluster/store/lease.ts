/**
 * @module cluster/store/lease
 * Session leases with fencing epochs (docs/cluster.md, "Ownership"). A session is owned by the node whose
 * name is in `gw:{id}:lease` ("<node>|<epoch>", expiring after the TTL). Acquiring is one script: the lease is set
 * only if absent (or left by this same node, e.g. before a restart) and the epoch grows by one, so every take-over
 * gets a higher epoch than any writer before it. Renewing and releasing only act while the lease still names the
 * caller with its epoch.
 *
 * `LeaseKeeper` holds the leases of one thread's sessions: it renews them every CLUSTER_RENEW_MS, keeps each one's
 * deadline on the monotonic clock (`deadline.ts`), and reports a lease lost (renewal refused, or deadline passed
 * without a successful renewal, e.g. Redis unreachable) to its listeners, which stop that session's link.
 */
import type { RedisConnection, RedisReply } from './connection.js'
import { luaScript, text } from './connection.js'
import { sessionKeys } from './keys.js'
import { LeaseDeadline, leaseMargin } from './lease-deadline.js'
import { countInThread } from '../../metrics/thread-counters.js'
import { FencedWriteError, leaseValue, type Fence, type FenceToken } from './fencing.js'

/** KEYS lease, epoch, owner; ARGV node, ttl. Replies {1, epoch, previous owner or ''} or {0, current holder}. */
const ACQUIRE = luaScript(`
local cur = redis.call('GET', KEYS[1])
if cur and string.sub(cur, 1, string.len(ARGV[1]) + 1) ~= ARGV[1] .. '|' then return {0, cur} end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. epoch, 'PX', ARGV[2])
local previous = redis.call('GET', KEYS[3]) or ''
redis.call('SET', KEYS[3], ARGV[1])
return {1, epoch, previous}
`)

/** KEYS lease; ARGV value, ttl. */
const RENEW = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`)

/** KEYS lease; ARGV value. */
const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)

export class LeaseHeldError extends Error {
  readonly code = 'LEASE_HELD'
  constructor(
    readonly sessionId: string,
    readonly holder: string,
  ) {
    super(`the session is owned by another node (${holder.split('|')[0]}); not opening a link here`)
    this.name = 'LeaseHeldError'
  }
}

/**
 * Acquires the lease of `id` for `node` (SET NX PX + INCR epoch, one script): the new epoch. A lease left by the
 * same node name is taken over at once with a new epoch (its old writes are fenced by it). Throws LeaseHeldError
 * when another node holds it.
 */
export async function acquireLease(
  redis: RedisConnection,
  id: string,
  node: string,
  ttlMs: number,
  onPrevious?: (previousOwner: string) => void,
): Promise<number> {
  const k = sessionKeys(id)
  const reply = (await redis.script(ACQUIRE, [k.lease, k.epoch, k.owner], [node, String(ttlMs)])) as RedisReply[]
  if (reply[0] !== 1) throw new LeaseHeldError(id, text(reply[1]) ?? '')
  onPrevious?.(text(reply[2]) ?? '')
  return Number(reply[1])
}

/** Extends the lease by the TTL if it still names `token`; false when it moved, expired or was released. */
export async function renewLease(
  redis: RedisConnection,
  id: string,
  token: FenceToken,
  ttlMs: number,
): Promise<boolean> {
  return (await redis.script(RENEW, [sessionKeys(id).lease], [leaseValue(token), String(ttlMs)])) === 1
}

/** Deletes the lease if it still names `token` (a clean stop: the next owner need not wait for the TTL). */
export async function releaseLease(redis: RedisConnection, id: string, token: FenceToken): Promise<boolean> {
  return (await redis.script(RELEASE, [sessionKeys(id).lease], [leaseValue(token)])) === 1
}

export interface LeaseKeeperOptions {
  node: string
  ttlMs: number
  renewMs: number
  /** Default: leaseMargin(ttlMs). */
  marginMs?: number
  /** Monotonic clock (ms); default performance.now. */
  now?: () => number
  /** A renewal failed for a reason other than the lease having moved (Redis unreachable). */
  onRenewError?: (err: unknown) => void
}

interface Held {
  token: FenceToken
  deadline: LeaseDeadline
}

/** The leases one thread holds; also the `Fence` of its store. */
export class LeaseKeeper implements Fence {
  readonly #redis: () => Promise<RedisConnection>
  readonly #options: LeaseKeeperOptions
  readonly #held = new Map<string, Held>()
  readonly #lostListeners = new Set<(id: string) => void>()
  #renewTimer: NodeJS.Timeout | undefined
  #checkTimer: NodeJS.Timeout | undefined
  #renewing = false

  constructor(redis: () => Promise<RedisConnection>, options: LeaseKeeperOptions) {
    this.#redis = redis
    this.#options = options
  }

  get node(): string {
    return this.#options.node
  }

  /** Session ids whose lease this keeper holds. */
  held(): string[] {
    return [...this.#held.keys()]
  }

  /** Listens for leases lost (the session must stop its link; it may try to acquire again later). */
  onLost(listener: (id: string) => void): () => void {
    this.#lostListeners.add(listener)
    return () => this.#lostListeners.delete(listener)
  }

  #deadline(): LeaseDeadline {
    const { ttlMs, marginMs, now } = this.#options
    return new LeaseDeadline(ttlMs, marginMs ?? leaseMargin(ttlMs), now)
  }

  /** Acquires the session's lease (or keeps the one held, renewing it); returns the epoch. Throws LeaseHeldError. */
  async acquire(id: string): Promise<number> {
    const redis = await this.#redis()
    const existing = this.#held.get(id)
    if (existing && !existing.deadline.passed()) {
      const sentAt = existing.deadline.now()
      if (await renewLease(redis, id, existing.token, this.#options.ttlMs)) {
        existing.deadline.renewed(sentAt)
        return existing.token.epoch
      }
      this.#lose(id)
    }
    const deadline = this.#deadline()
    const sentAt = deadline.now()
    const epoch = await acquireLease(redis, id, this.#options.node, this.#options.ttlMs, previous => {
      if (previous !== '' && previous !== this.#options.node) countInThread('takeovers')
    })
    deadline.renewed(sentAt)
    this.#held.set(id, { token: { node: this.#options.node, epoch }, deadline })
    this.#start()
    return epoch
  }

  /** Gives the lease up (clean stop). Never throws: an unreachable Redis lets it expire by itself. */
  async release(id: string): Promise<void> {
    const held = this.#held.get(id)
    if (!held) return
    this.#held.delete(id)
    try {
      await releaseLease(await this.#redis(), id, held.token)
    } catch {
      // it expires after the TTL
    }
  }

  /** Whether this thread holds the session's lease and its deadline has not passed (a cheap check, no Redis). */
  holds(id: string): boolean {
    const held = this.#held.get(id)
    return held !== undefined && !held.deadline.passed()
  }

  token(id: string): FenceToken {
    const held = this.#held.get(id)
    if (!held) throw new FencedWriteError(id, 'not-held')
    if (held.deadline.passed()) {
      this.#lose(id)
      throw new FencedWriteError(id, 'lease-lost')
    }
    return held.token
  }

  refused(id: string, token: FenceToken): void {
    if (this.#held.get(id)?.token.epoch === token.epoch) this.#lose(id)
  }

  /** Renews every held lease once (the timer calls this every renewMs). */
  async renewAll(): Promise<void> {
    if (this.#renewing) return
    this.#renewing = true
    try {
      const redis = await this.#redis()
      await Promise.all(
        [...this.#held].map(async ([id, held]) => {
          const sentAt = held.deadline.now()
          try {
            if (await renewLease(redis, id, held.token, this.#options.ttlMs)) held.deadline.renewed(sentAt)
            else if (this.#held.get(id) === held) this.#lose(id)
          } catch (err) {
            this.#options.onRenewError?.(err)
          }
        }),
      )
    } catch (err) {
      this.#options.onRenewError?.(err)
    } finally {
      this.#renewing = false
    }
    this.#checkDeadlines()
  }

  #checkDeadlines(): void {
    for (const [id, held] of this.#held) if (held.deadline.passed()) this.#lose(id)
  }

  #lose(id: string): void {
    if (!this.#held.delete(id)) return
    for (const listener of this.#lostListeners) {
      try {
        listener(id)
      } catch {
        // a listener's failure must not keep the others from hearing it
      }
    }
  }

  #start(): void {
    if (this.#renewTimer) return
    this.#renewTimer = setInterval(() => void this.renewAll(), this.#options.renewMs)
    this.#renewTimer.unref()
    // Deadlines are checked more often than renewals: a lease whose renewals fail stops close to its deadline.
    const margin = this.#options.marginMs ?? leaseMargin(this.#options.ttlMs)
    this.#checkTimer = setInterval(
      () => this.#checkDeadlines(),
      Math.max(20, Math.floor(Math.min(margin, this.#options.renewMs) / 2)),
    )
    this.#checkTimer.unref()
  }

  /** Stops renewing (the leases then expire unless released). */
  stop(): void {
    clearInterval(this.#renewTimer)
    clearInterval(this.#checkTimer)
    this.#renewTimer = undefined
    this.#checkTimer = undefined
  }
}
