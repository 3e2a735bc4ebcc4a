/**
 * @module cluster/session-auth
 * Cluster mode: the node a request reaches authenticates it (`id` + `session-id`) before anything crosses to
 * another node, against the registry every node shares. A session this node runs is checked in its snapshot
 * cache; another node's session against a cache of the registry's secret hashes (filled by a read of its row);
 * a miss or a mismatch reads the row once more (it may be new, or the cache old).
 *
 * Every failure costs the same: a compare against the cache (a decoy hash when the id is not cached), one registry
 * read with its row unsealed (a decoy row when there is none: cluster/store/registry.ts) and one constant-time
 * compare, whether the id runs here, on another node, or nowhere. A wrong secret cannot tell those apart by the answer (the same 404 on every node) or by
 * its time, and nothing about it reaches another node (SECURITY.md: Cluster mode).
 */
import { secretMatches } from '../actors/main/session-mode.js'
import type { SessionRecord } from '../storage/types.js'

/** Compared against when the registry has no row, so a missing id costs what a wrong secret costs. */
const DECOY_HASH = '0'.repeat(64)
/** Secret hashes of other nodes' sessions kept at most (a few MB): the rest is read again when used. */
const MAX_CACHED = 100_000

export interface SessionAuthOptions {
  /** The registry row of `id` (one Redis read). */
  readRecord(id: string): Promise<SessionRecord | undefined>
  /** Whether this node runs `id` and `secret` is its secret (the snapshot cache, no Redis). */
  authenticLocally(id: string, secret: string): boolean
  /** The secret check (tests count its calls). */
  matches?: typeof secretMatches
}

export class ClusterSessionAuth {
  readonly #o: SessionAuthOptions
  readonly #hashes = new Map<string, string>()
  readonly #matches: typeof secretMatches

  constructor(options: SessionAuthOptions) {
    this.#o = options
    this.#matches = options.matches ?? secretMatches
  }

  /** Whether this node runs `id` and `secret` is its secret: the fast, synchronous success of `authenticate`. */
  authenticLocally(id: string, secret: string): boolean {
    return this.#o.authenticLocally(id, secret)
  }

  /**
   * Whether `secret` is the secret of session `id`, wherever it runs. The caller may say the id does not run here;
   * its snapshot check runs all the same (the cache compares an unknown id against a decoy), so an id that runs
   * here, one that runs elsewhere and one that runs nowhere cost the same hashes.
   */
  async authenticate(id: string, secret: string, runsHere = true): Promise<boolean> {
    const local = this.#o.authenticLocally(id, secret)
    if (runsHere && local) return true
    const cached = this.#hashes.get(id)
    // compared whether cached or not: an id seen before costs no more than one never seen
    if (this.#matches(cached ?? DECOY_HASH, secret) && cached !== undefined) {
      // least recently used goes first: a hit moves to the end
      this.#hashes.delete(id)
      this.#hashes.set(id, cached)
      return true
    }
    const record = await this.#o.readRecord(id)
    const matches = this.#matches(record?.secretHash ?? DECOY_HASH, secret)
    if (!record || !matches) return false
    this.#remember(id, record.secretHash)
    return true
  }

  /** The session is gone (deleted here, or seen missing): its hash is dropped. */
  forget(id: string): void {
    this.#hashes.delete(id)
  }

  #remember(id: string, secretHash: string): void {
    this.#hashes.delete(id)
    this.#hashes.set(id, secretHash)
    if (this.#hashes.size > MAX_CACHED) this.#hashes.delete(this.#hashes.keys().next().value!)
  }
}
