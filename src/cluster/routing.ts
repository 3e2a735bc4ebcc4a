/**
 * @module cluster/routing
 * Where a request goes in cluster mode (the HTTP side is http/cluster-routing.ts):
 *   - a session this node runs: here;
 *   - a session whose lease another live node holds: forwarded to that node's ADVERTISE_URL;
 *   - a registered session whose lease nobody holds (new and not connected yet, handed over, or its owner died):
 *     forwarded to the node it belongs on, which runs it or is about to (and answers 503 SESSION_MOVING with
 *     Retry-After until then); 503 here when that is this node, or while a node that stopped beating holds it;
 *   - an id the registry does not know: here, where the header guard answers 404 like any unknown session.
 * A new session goes to the node with the fewest sessions among those that take sessions.
 *
 * The peer token (a random secret in `gw:meta`, created by the first node) tells a request forwarded by another
 * node from a client's: only then is its client key believed, and such a request is never forwarded again.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { RedisConnection } from '../storage/redis/connection.js'
import { text } from '../storage/redis/connection.js'
import { META_KEY, REGISTRY_KEY, sessionKeys } from '../storage/redis/keys.js'
import type { NodeDirectory } from './nodes.js'
import { homeOf, leastLoaded } from './placement.js'
import type { ClusterGaugeSource } from '../metrics/cluster-metrics.js'

const PEER_TOKEN_FIELD = 'peer-token'

/** The cluster's peer token: created once (HSETNX) by whichever node starts first, then read by every node. */
export async function loadPeerToken(redis: RedisConnection): Promise<string> {
  await redis.command(['HSETNX', META_KEY, PEER_TOKEN_FIELD, randomBytes(32).toString('base64url')])
  const token = text(await redis.command(['HGET', META_KEY, PEER_TOKEN_FIELD]))
  if (!token) throw new Error('could not read the cluster peer token from Redis')
  return token
}

export type Route = { to: 'here' } | { to: 'node'; url: string } | { to: 'moving' }

export class ClusterRoutes implements ClusterGaugeSource {
  readonly #redis: () => Promise<RedisConnection>
  readonly #directory: NodeDirectory
  readonly #hosts: (id: string) => boolean
  readonly #count: () => number
  readonly #token: Buffer

  constructor(
    redis: () => Promise<RedisConnection>,
    directory: NodeDirectory,
    hosts: (id: string) => boolean,
    count: () => number,
    peerToken: string,
  ) {
    this.#redis = redis
    this.#directory = directory
    this.#hosts = hosts
    this.#count = count
    this.#token = Buffer.from(peerToken)
  }

  get peerToken(): string {
    return this.#token.toString()
  }

  /** Whether `presented` is the peer token (constant time). */
  isPeer(presented: string | undefined): boolean {
    if (presented === undefined) return false
    const given = Buffer.from(presented)
    return given.length === this.#token.length && timingSafeEqual(given, this.#token)
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

  /** Where a request for a session this node does not run goes. */
  async locate(id: string): Promise<Route> {
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
      return node ? { to: 'node', url: node.url } : { to: 'moving' }
    }
    const holder = lease.split('|')[0]!
    const node = holder === this.#directory.node ? undefined : this.#directory.get(holder)
    // our own lease not yet in our cache (being adopted), or a holder that stopped beating (dead or paused): wait
    return node ? { to: 'node', url: node.url } : { to: 'moving' }
  }

  /** Where a new session goes: the least loaded node that takes sessions (here when that is this node, or none). */
  placeNew(): Route {
    const candidates = this.#directory.live().filter(n => n.accepting)
    const target = leastLoaded(candidates)
    if (target) this.#directory.noteSession(target.node)
    if (!target || target.node === this.#directory.node) return { to: 'here' }
    return { to: 'node', url: target.url }
  }
}
