/**
 * @module cluster/ownership
 * Cluster mode's loop on each node's main thread: every CLUSTER_HEARTBEAT_MS it beats (cluster/node-directory.ts),
 * reads the registry and every session's lease, and moves this node's sessions toward where they belong
 * (cluster/placement.ts, rendezvous hashing over the nodes that take sessions):
 *   - adopt: a session that belongs here and whose lease nobody holds (new, handed over, or its owner died and the
 *     lease expired) starts here; its actor acquires the lease before its link opens (store/leased-runs.ts), and after
 *     an owner's death it goes through the unclean-stop recovery like a restart after kill -9;
 *   - step down: a session running here whose lease another node holds (this node was cut off past its lease) is
 *     stopped here, without logging out and without a new link;
 *   - hand over: a paired session running here that belongs on another live node (one joined) is released
 *     cleanly (link closed, clean stop recorded, lease given back) at CLUSTER_REBALANCE_PER_SECOND, so a join
 *     spreads the load gradually; the node it goes to is told at once (peer-calls.ts) and adopts it then, not at
 *     its next beat. A session showing a QR stays where it is: moving it would change the QR under the phone
 *     scanning it.
 * Another node may ask for the same at any time (`adoptNow`: a session created for this node, or handed to it):
 * the same rule decides, for those sessions only.
 * The lease alone keeps ownership exclusive: two nodes that briefly disagree about the list of nodes cannot both
 * run a session, one of them finds the lease taken.
 */
import type { Logger } from 'pino'
import type { LocalSessions } from './local-sessions.js'
import type { RedisConnection } from './store/connection.js'
import { text } from './store/connection.js'
import { REGISTRY_KEY, sessionKeys } from './store/keys.js'
import { countInThread } from '../metrics/thread-counters.js'
import type { NodeDirectory } from './node-directory.js'
import { homeOf } from './placement.js'
import type { PeerCalls } from './peer-calls.js'

export interface OwnershipOptions {
  directory: NodeDirectory
  sessions: LocalSessions
  redis: () => Promise<RedisConnection>
  logger: Logger
  heartbeatMs: number
  rebalancePerSecond: number
  /** Sessions this node lets connect at once when adopting (a take-over of hundreds must not starve handshakes). */
  startConcurrency: number
  /** Tells the node a session was handed to, so it adopts it at once. */
  peers: PeerCalls
}

/** What one pass decided (tests read it). */
export interface OwnershipPass {
  adopt: string[]
  stepDown: string[]
  handOver: string[]
}

/**
 * One pass's decisions from the registry, the leases and the live nodes; pure. `leases[i]` is the holder of
 * `ids[i]`'s lease ("node|epoch") or undefined.
 */
export function plan(
  self: string,
  ids: readonly string[],
  leases: readonly (string | undefined)[],
  local: ReadonlySet<string>,
  placing: readonly string[],
): OwnershipPass {
  const pass: OwnershipPass = { adopt: [], stepDown: [], handOver: [] }
  ids.forEach((id, i) => {
    const holder = leases[i]?.split('|')[0]
    const home = homeOf(id, placing)
    if (local.has(id)) {
      if (holder !== undefined && holder !== self) pass.stepDown.push(id)
      else if (home !== undefined && home !== self) pass.handOver.push(id)
    } else if (holder === self || (holder === undefined && home === self)) {
      // a lease of this node's name that nothing here runs was left by this node's previous process
      pass.adopt.push(id)
    }
  })
  return pass
}

export class Ownership {
  readonly #o: OwnershipOptions
  readonly #self: string
  readonly #adopting = new Set<string>()
  readonly #moving = new Set<string>()
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined
  #stopped = false
  #handOverCredit = 0
  #lastPassAt = 0
  #lastError = ''

  constructor(options: OwnershipOptions) {
    this.#o = options
    this.#self = options.directory.node
  }

  start(): void {
    const loop = () => {
      if (this.#stopped) return
      this.#running = this.pass()
        .then(
          () => undefined,
          err => this.#failed(err),
        )
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(loop, this.#o.heartbeatMs)
        })
    }
    loop()
  }

  /** Stops the loop (shutdown); the sessions themselves are closed by the session system. */
  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#running?.catch(() => undefined)
  }

  #failed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err)
    if (message !== this.#lastError) this.#o.logger.warn({ err }, 'cluster: heartbeat or ownership pass failed')
    this.#lastError = message
  }

  /** One beat and one pass; the timer calls it, tests may too. */
  async pass(): Promise<OwnershipPass> {
    const { directory, sessions } = this.#o
    await directory.beat()
    this.#lastError = ''
    const redis = await this.#o.redis()
    const ids = ((await redis.command(['HKEYS', REGISTRY_KEY])) as Buffer[]).map(b => b.toString('utf8'))
    const leases = await Promise.all(ids.map(async id => text(await redis.command(['GET', sessionKeys(id).lease]))))
    const local = new Set(sessions.localIds())
    const decided = plan(this.#self, ids, leases, local, directory.placing())
    for (const id of decided.stepDown) this.#move(id, 'step-down')
    // placement needs the whole list of nodes: not on the first beat after start or after Redis was unreachable
    if (!directory.settled) return decided
    // hand-overs only to a node that takes sessions, at the rebalance rate
    const now = Date.now()
    const elapsed = this.#lastPassAt === 0 ? this.#o.heartbeatMs : now - this.#lastPassAt
    this.#lastPassAt = now
    const rate = this.#o.rebalancePerSecond
    this.#handOverCredit = Math.min(rate * 2, this.#handOverCredit + (rate * elapsed) / 1000)
    for (const id of decided.handOver) {
      if (this.#handOverCredit < 1 || this.#moving.has(id) || !sessions.movable(id)) continue
      this.#handOverCredit -= 1
      this.#move(id, 'hand-over')
    }
    this.#adoptSome(decided.adopt)
    return decided
  }

  /** Adopts what it can of `ids` now, within the start concurrency (the rest on a later beat). */
  #adoptSome(ids: readonly string[]): void {
    const { directory, sessions } = this.#o
    let room = this.#o.startConcurrency - sessions.connecting() - this.#adopting.size
    for (const id of ids) {
      if (room <= 0 || !directory.accepting) break
      if (this.#adopting.has(id) || this.#moving.has(id)) continue
      room--
      this.#adopt(id)
    }
  }

  /**
   * Another node asks this one to run `ids` now (created for it, or handed to it): those that belong here and
   * whose lease nobody holds are adopted, by the rule of a pass.
   */
  async adoptNow(ids: readonly string[]): Promise<void> {
    const { directory, sessions } = this.#o
    if (this.#stopped || !directory.settled) return
    // the nodes as this node knows them now: the node handing them over may have left since this node's last beat
    await directory.beat()
    const redis = await this.#o.redis()
    const leases = await Promise.all(ids.map(async id => text(await redis.command(['GET', sessionKeys(id).lease]))))
    const local = new Set(ids.filter(id => sessions.hosts(id)))
    this.#adoptSome(plan(this.#self, ids, leases, local, directory.placing()).adopt)
  }

  #adopt(id: string): void {
    this.#adopting.add(id)
    this.#o.sessions
      .adopt(id)
      .then(adopted => {
        if (adopted) this.#o.logger.info({ session: id }, 'cluster: session adopted')
      })
      .catch(err => this.#o.logger.warn({ err, session: id }, 'cluster: could not adopt the session'))
      .finally(() => this.#adopting.delete(id))
  }

  #move(id: string, why: 'step-down' | 'hand-over'): void {
    if (this.#moving.has(id)) return
    this.#moving.add(id)
    countInThread('sessionsReleased', { reason: why })
    this.#o.logger.info(
      { session: id, reason: why },
      why === 'step-down'
        ? 'cluster: another node holds the lease; stopping the session here (no logout)'
        : 'cluster: handing the session over to the node it belongs on',
    )
    this.#o.sessions
      .release(id)
      .then(async () => {
        // the lease is back: the node it belongs on need not wait for its next beat
        const home = homeOf(id, this.#o.directory.placing())
        if (why === 'hand-over' && home !== undefined && home !== this.#self) await this.#o.peers.adopt(home, [id])
      })
      .catch(err => this.#o.logger.warn({ err, session: id }, 'cluster: releasing the session failed'))
      .finally(() => this.#moving.delete(id))
  }
}
