/**
 * @module cluster/node-directory
 * The nodes of a cluster, as each one sees them: every node's main thread writes a heartbeat to
 * `gw:node:<NODE_ID>` (its address, its session count, whether it takes sessions) every CLUSTER_HEARTBEAT_MS,
 * expiring after three of them, and lists the others from the `gw:nodes` set. A node whose heartbeat expired is
 * gone: its name is dropped from the set by whoever notices.
 *
 * A node whose process did not run for longer than its leases' deadline (paused by SIGSTOP, a long GC, a frozen
 * VM) comes back "quiet" for CLUSTER_REJOIN_QUIET_MS: it says it takes no sessions, so placement leaves it out
 * while the sessions it lost settle elsewhere. A node shutting down says the same before it hands its sessions over.
 *
 * Redis is not trusted with who the nodes are: each record carries a MAC made with CLUSTER_SECRET over its fields
 * and its expiry (cluster/peer-auth.ts). A record someone else wrote, changed or replayed after its time is not a
 * node: nothing is forwarded to the address it names (docs/cluster.md, threat model in SECURITY.md).
 */
import { performance } from 'node:perf_hooks'
import type { RedisConnection } from './store/connection.js'
import { text } from './store/connection.js'
import { PEER_SKEW_MS, type PeerAuth } from './peer-auth.js'

export const NODES_KEY = 'gw:nodes'
/** More names than this in `gw:nodes` are not read: someone wrote them, and they must not make every beat slow. */
const MAX_NODES = 256
export const nodeKey = (node: string): string => `gw:node:${node}`

/** One node's heartbeat. */
export interface NodeInfo {
  node: string
  /** Where the other nodes forward its sessions' requests (ADVERTISE_URL). */
  url: string
  /** Sessions it runs now. */
  sessions: number
  /** Whether placement may give it sessions (false while quiet after a cut-off, and while shutting down). */
  accepting: boolean
}

export interface NodeDirectoryOptions {
  node: string
  url: string
  heartbeatMs: number
  /**
   * A gap between two beats longer than this (the leases' deadline) means the process itself did not run (paused,
   * frozen): its sessions have moved, and it comes back quiet. Beats that fail (Redis unreachable) still count as
   * beats: a Redis outage that every node saw makes nobody quiet.
   */
  quietAfterGapMs: number
  rejoinQuietMs: number
  /** The session count to announce. */
  sessions: () => number
  /** Signs this node's record and checks the others' (CLUSTER_SECRET). */
  auth: PeerAuth
  /** Only nodes with an https address count (CLUSTER_REQUIRE_TLS). */
  requireTls?: boolean
  /** Called with the live nodes after every successful beat (the forwarder drops the pools of nodes gone). */
  onNodes?: (nodes: NodeInfo[]) => void
  /** Monotonic clock (ms); default performance.now. */
  now?: () => number
  /** Wall clock (ms) of the records' expiry, compared across nodes; default Date.now. */
  wallNow?: () => number
}

/** The fields a record's MAC covers, in a fixed order. */
const signedFields = (n: NodeInfo, expiresAt: number): string =>
  JSON.stringify([n.node, n.url, n.sessions, n.accepting, expiresAt])

/** An origin the forwarder can reach: http(s), a host, no path, query or credentials. */
function isPeerOrigin(url: string, requireTls: boolean): boolean {
  try {
    const u = new URL(url)
    if (u.protocol !== 'https:' && (requireTls || u.protocol !== 'http:')) return false
    return u.username === '' && u.password === '' && `${u.origin}` === url.replace(/\/$/, '')
  } catch {
    return false
  }
}

/** A heartbeat record as read from Redis: the node's info when its MAC and expiry hold, else undefined. */
export function parseNodeRecord(
  raw: string | undefined,
  name: string,
  auth: PeerAuth,
  wallNow: number,
  requireTls = false,
): NodeInfo | undefined {
  if (raw === undefined || raw.length > 4_096) return undefined
  try {
    const v = JSON.parse(raw) as Partial<NodeInfo> & { expiresAt?: unknown; mac?: unknown }
    if (typeof v.node !== 'string' || v.node !== name || typeof v.url !== 'string') return undefined
    if (typeof v.sessions !== 'number' || typeof v.accepting !== 'boolean') return undefined
    if (typeof v.expiresAt !== 'number' || v.expiresAt + PEER_SKEW_MS < wallNow) return undefined
    const info: NodeInfo = { node: v.node, url: v.url, sessions: v.sessions, accepting: v.accepting }
    if (!auth.recordMacValid(signedFields(info, v.expiresAt), v.mac)) return undefined
    return isPeerOrigin(info.url, requireTls) ? { ...info, url: new URL(info.url).origin } : undefined
  } catch {
    return undefined
  }
}

export class NodeDirectory {
  readonly #redis: () => Promise<RedisConnection>
  readonly #o: NodeDirectoryOptions
  readonly #now: () => number
  #known = new Map<string, NodeInfo>()
  #lastAttempt = Number.NaN
  /** Successful beats in a row (a failed one resets it). */
  #inARow = 0
  #quietUntil = 0
  #leaving = false

  constructor(redis: () => Promise<RedisConnection>, options: NodeDirectoryOptions) {
    this.#redis = redis
    this.#o = options
    this.#now = options.now ?? (() => performance.now())
  }

  get node(): string {
    return this.#o.node
  }

  get url(): string {
    return this.#o.url
  }

  /** How long a heartbeat lives. */
  get ttlMs(): number {
    return this.#o.heartbeatMs * 3
  }

  /**
   * Whether what this node knows of the other nodes is whole: two beats in a row succeeded, so every live node (beating on
   * the same period) has written its heartbeat since the first of them. After Redis was unreachable every
   * heartbeat has expired; the first beat back would see this node alone and place every free session on it.
   */
  get settled(): boolean {
    return this.#inARow >= 2
  }

  /** Whether this node takes sessions now. */
  get accepting(): boolean {
    return !this.#leaving && this.#now() >= this.#quietUntil
  }

  /**
   * Writes this node's heartbeat and reads everyone's; returns the live nodes. A gap since the last beat (tried,
   * not necessarily successful) longer than the leases' deadline means this process was frozen past its leases:
   * it comes back quiet.
   */
  async beat(): Promise<NodeInfo[]> {
    const sentAt = this.#now()
    if (sentAt - this.#lastAttempt > this.#o.quietAfterGapMs) this.#quietUntil = sentAt + this.#o.rejoinQuietMs
    this.#lastAttempt = sentAt
    try {
      const known = await this.#beatOnce()
      this.#inARow++
      return known
    } catch (err) {
      this.#inARow = 0
      throw err
    }
  }

  async #beatOnce(): Promise<NodeInfo[]> {
    const redis = await this.#redis()
    const mine: NodeInfo = {
      node: this.#o.node,
      url: this.#o.url,
      sessions: this.#o.sessions(),
      accepting: this.accepting,
    }
    const wallNow = this.#o.wallNow ?? Date.now
    const expiresAt = wallNow() + this.ttlMs
    const record = { ...mine, expiresAt, mac: this.#o.auth.recordMac(signedFields(mine, expiresAt)) }
    await Promise.all([
      redis.command(['SET', nodeKey(this.#o.node), JSON.stringify(record), 'PX', String(this.ttlMs)]),
      redis.command(['SADD', NODES_KEY, this.#o.node]),
    ])
    const names = ((await redis.command(['SMEMBERS', NODES_KEY])) as Buffer[])
      .map(b => b.toString('utf8'))
      .slice(0, MAX_NODES)
    const raws = await Promise.all(names.map(async n => text(await redis.command(['GET', nodeKey(n)]))))
    const known = new Map<string, NodeInfo>()
    const gone: string[] = []
    const now = wallNow()
    names.forEach((n, i) => {
      const info = parseNodeRecord(raws[i], n, this.#o.auth, now, this.#o.requireTls)
      if (info) known.set(n, info)
      // gone, or never a node: a record nobody signed is dropped from the set like an expired one
      else if (n !== this.#o.node) gone.push(n)
    })
    known.set(mine.node, mine) // what this node knows of itself is newer than what it read back
    if (gone.length > 0) await redis.command(['SREM', NODES_KEY, ...gone])
    this.#known = known
    this.#o.onNodes?.([...known.values()])
    return [...known.values()]
  }

  /** The nodes seen alive at the last beat (this one included once it has beaten). */
  live(): NodeInfo[] {
    return [...this.#known.values()]
  }

  /** The live node named `node`, if any. */
  get(node: string): NodeInfo | undefined {
    return this.#known.get(node)
  }

  /**
   * Counts one more session on `node` until the next beat brings the real numbers: the sessions placed between two
   * beats spread out instead of all landing on the node that looked least loaded at the last one.
   */
  noteSession(node: string): void {
    const info = this.#known.get(node)
    if (info) this.#known.set(node, { ...info, sessions: info.sessions + 1 })
  }

  /** Names of the live nodes that take sessions: the candidates of placement. */
  placing(): string[] {
    return [...this.#known.values()].filter(n => n.accepting).map(n => n.node)
  }

  /**
   * Shutting down: from now on this node takes no sessions, and the others learn it at once (so they place and
   * adopt its sessions without it). Never throws: a node that cannot tell Redis simply expires.
   */
  async leave(): Promise<void> {
    this.#leaving = true
    try {
      await this.beat()
    } catch {
      // the heartbeat expires by itself
    }
  }

  /** Removes this node's heartbeat (last step of a clean stop). Never throws. */
  async remove(): Promise<void> {
    try {
      const redis = await this.#redis()
      await Promise.all([
        redis.command(['DEL', nodeKey(this.#o.node)]),
        redis.command(['SREM', NODES_KEY, this.#o.node]),
      ])
    } catch {
      // it expires
    }
  }
}
