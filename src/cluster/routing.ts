/**
 * @module cluster/routing
 * Where a request goes in cluster mode (the HTTP side is http/cluster-routing.ts):
 *   - a session this node runs: here;
 *   - a session whose lease another live node holds: forwarded to that node's ADVERTISE_URL;
 *   - a registered session whose lease nobody holds (new and not connected yet, handed over, or its owner died):
 *     forwarded to the node it belongs on, which runs it or is about to (and answers 503 SESSION_MOVING with
 *     Retry-After until then); 503 here when that is this node, or while a node that stopped beating holds it;
 *   - an id the registry does not know: here, where the authentication answers 404 like any unknown session;
 *   - Redis unreachable: on its way (the request waits for it to answer again).
 * A new session goes to the node with the fewest sessions among those that take sessions.
 */
import type { RedisConnection } from './store/connection.js'
import { text } from './store/connection.js'
import { REGISTRY_KEY, sessionKeys } from './store/keys.js'
import type { NodeDirectory } from './node-directory.js'
import { homeOf, leastLoaded } from './placement.js'
import type { ClusterGaugeSource } from '../metrics/cluster-metrics.js'
import type { PeerNode } from './forward.js'

export type Route = { to: 'here' } | { to: 'node'; peer: PeerNode } | { to: 'moving' }

export class ClusterRoutes implements ClusterGaugeSource {
  readonly #redis: () => Promise<RedisConnection>
  readonly #directory: NodeDirectory
  readonly #hosts: (id: string) => boolean
  readonly #count: () => number

  constructor(
    redis: () => Promise<RedisConnection>,
    directory: NodeDirectory,
    hosts: (id: string) => boolean,
    count: () => number,
  ) {
    this.#redis = redis
    this.#directory = directory
    this.#hosts = hosts
    this.#count = count
  }

  leasesHeld(): number {
    return this.#count()
  }

  nodesLive(): number {
    return this.#directory.live().length
  }

  /** Whether this node runs the session (a fast check, no Redis). */
  hosts(id: string): boolean {
    return this.#hosts(id)
  }

  /**
   * Where a request for a session this node does not run goes. Redis unreachable for a moment (a restart): nothing
   * ran, and the request waits as for a session between two nodes (then 503 with Retry-After), not a 500.
   */
  async locate(id: string): Promise<Route> {
    try {
      return await this.#locate(id)
    } catch {
      return this.#hosts(id) ? { to: 'here' } : { to: 'moving' }
    }
  }

  async #locate(id: string): Promise<Route> {
    const redis = await this.#redis()
    const lease = text(await redis.command(['GET', sessionKeys(id).lease]))
    if (this.#hosts(id)) return { to: 'here' } // adopted while we asked
    if (lease === undefined) {
      const known = Number(await redis.command(['HEXISTS', REGISTRY_KEY, id])) === 1
      if (!known) return { to: 'here' }
      // nobody holds it yet: a new session whose link has not opened, or one between two nodes; the node it
      // belongs on runs it or is about to (it answers 503 itself until then)
      const home = homeOf(id, this.#directory.placing())
      const node = home === undefined || home === this.#directory.node ? undefined : this.#directory.get(home)
      return node ? { to: 'node', peer: node } : { to: 'moving' }
    }
    const holder = lease.split('|')[0]!
    const node = holder === this.#directory.node ? undefined : this.#directory.get(holder)
    // our own lease not yet in our cache (being adopted), or a holder that stopped beating (dead or paused): wait
    return node ? { to: 'node', peer: node } : { to: 'moving' }
  }

  /** The node a new session goes to: the least loaded that takes sessions (this one when there is none). */
  placeNew(): string {
    const target = leastLoaded(this.#directory.live().filter(n => n.accepting))
    if (!target) return this.#directory.node
    this.#directory.noteSession(target.node)
    return target.node
  }

  /** The live node named `node` (its signed record), unless it is this one. */
  peer(node: string): PeerNode | undefined {
    return node === this.#directory.node ? undefined : this.#directory.get(node)
  }
}
