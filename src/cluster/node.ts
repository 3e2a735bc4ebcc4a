/**
 * @module cluster/node
 * Cluster mode on the main thread, put together: the Redis store the session system uses, this node's heartbeat
 * (nodes.ts), the ownership loop that adopts, hands over and steps down (ownership.ts), and the request routes
 * (routing.ts) the HTTP front end forwards by. `src/main.ts` creates it when REDIS_URL is set.
 *
 * @example
 * const node = openClusterNode(config, logger)
 * const system = await createShardedSessionSystem({ config, logger, store: node.store, drawIds: node.drawIds })
 * const routes = await node.start(system)   // heartbeat + ownership loop; routes for createApp
 * // SIGTERM:
 * await node.leave(); await system.close(); await node.close()
 */
import os from 'node:os'
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import type { LocalSessions } from '../actors/main/local-sessions.js'
import { newSessionIds } from '../actors/main/ids.js'
import { openStore } from '../storage/open-store.js'
import type { RedisStore } from '../storage/redis/redis-store.js'
import { closeForwardAgents } from './forward.js'
import { NodeDirectory } from './nodes.js'
import { Ownership } from './ownership.js'
import { drawIdHomedAt } from './placement.js'
import { ClusterRoutes, loadPeerToken } from './routing.js'
import { leaseMargin } from './deadline.js'

export interface ClusterNode {
  /** The main thread's store (Redis); the node closes it. */
  store: RedisStore
  /** Ids for a new session that belongs on this node. */
  drawIds: () => { id: string; sessionId: string }
  /** Starts the heartbeat and the ownership loop over `sessions`; the routes for the HTTP front end. */
  start(sessions: LocalSessions): Promise<ClusterRoutes>
  /** SIGTERM, first step: stop adopting and tell the others this node takes no more sessions. */
  leave(): Promise<void>
  /** SIGTERM, last step (after the sessions closed and gave their leases back): heartbeat removed, store closed. */
  close(): Promise<void>
}

/** ADVERTISE_URL's default: the address listened on when it is one address, else the host name. */
function defaultAdvertiseUrl(host: string, port: number): string {
  const name = host === '' || host === '0.0.0.0' || host === '::' ? os.hostname() : host
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`
}

export function openClusterNode(config: Config, logger: Logger): ClusterNode {
  const log = logger.child({ component: 'cluster', node: config.NODE_ID })
  const store = openStore(config, config.DATA_DIR, log).store as RedisStore
  const redis = () => store.connection()
  let sessions: LocalSessions | undefined
  const directory = new NodeDirectory(redis, {
    node: config.NODE_ID,
    url: config.ADVERTISE_URL ?? defaultAdvertiseUrl(config.HOST, config.PORT),
    heartbeatMs: config.CLUSTER_HEARTBEAT_MS,
    // frozen past its leases' deadline: its sessions are gone, so it sits out placement for a while
    quietAfterGapMs: config.CLUSTER_LEASE_TTL_MS - leaseMargin(config.CLUSTER_LEASE_TTL_MS),
    rejoinQuietMs: config.CLUSTER_REJOIN_QUIET_MS,
    sessions: () => sessions?.localIds().length ?? 0,
  })
  let ownership: Ownership | undefined
  return {
    store,
    drawIds: () => drawIdHomedAt(newSessionIds, directory.node, [...new Set([...directory.placing(), directory.node])]),
    async start(local) {
      sessions = local
      const token = await loadPeerToken(await redis())
      ownership = new Ownership({
        directory,
        sessions: local,
        redis,
        logger: log,
        heartbeatMs: config.CLUSTER_HEARTBEAT_MS,
        rebalancePerSecond: config.CLUSTER_REBALANCE_PER_SECOND,
        startConcurrency: config.RESTORE_CONCURRENCY * config.SHARDS,
      })
      ownership.start()
      log.info({ url: directory.url }, 'cluster node started')
      return new ClusterRoutes(
        redis,
        directory,
        id => local.hosts(id),
        () => local.localIds().length,
        token,
      )
    },
    async leave() {
      await ownership?.stop()
      await directory.leave()
    },
    async close() {
      await directory.remove()
      closeForwardAgents()
      await store.close()
    },
  }
}
