/**
 * @module cluster/cluster-node
 * Cluster mode on the main thread, put together: the one entry `src/main.ts` calls when REDIS_URL is set. It
 * holds the Redis store the session system uses and how new sessions are created across the nodes
 * (creation.ts); once started, this node's heartbeat and its directory of peers (node-directory.ts), the ownership
 * loop that adopts, hands over and steps down (ownership.ts), and what it adds to the HTTP app: the front that
 * authenticates and forwards (front.ts), the shared creation rate (limits.ts), the gauges. What the shards do in
 * cluster mode (links only under their session's lease, every write fenced) is cluster mode's store engine's
 * (store/shard-store.ts), and the actors follow the cluster's `SessionPolicy`.
 *
 * @example
 * const node = openClusterNode(settings, logger)
 * const system = await createShardedSessionSystem({ settings, logger, mode: node.mode })
 * const http = await node.start(system)   // heartbeat + ownership loop; what createApp adds
 * // SIGTERM:
 * await node.leave(); await system.close(); await node.close()
 */
import { readFileSync } from 'node:fs'
import os from 'node:os'
import type { Logger } from 'pino'
import type { ActorSettings } from '../actors/settings.js'
import type { HttpSettings } from '../http/settings.js'
import { type ClusterSettings, sessionShare } from './settings.js'
import type { StoreSettings } from '../storage/settings.js'
import type { SessionSystem } from '../actors/main/session-system.js'
import type { ClusterHttp } from '../http/front-seam.js'
import { openClusterStore, shardStoreEngine } from './store/shard-store.js'
import { clusterMode, type ClusterMode } from './session-mode.js'
import { leaseMargin } from './store/lease-deadline.js'
import { META_KEY } from './store/keys.js'
import { NodeDirectory } from './node-directory.js'
import { Ownership } from './ownership.js'
import { homeOf } from './placement.js'
import { ClusterRoutes } from './routing.js'
import { PeerAuth } from './peer-auth.js'
import { Forwarder } from './forward.js'
import { clusterFront } from './front.js'
import { ViewTokenRoutes } from './view-token-routes.js'
import { ClusterSessionAuth } from './session-auth.js'
import { clusterCreation } from './creation.js'
import { clusterCreationRate, clusterPairingCodeBudget } from './limits.js'
import { peerCalls } from './peer-calls.js'

export interface ClusterNode {
  /** The session system's mode on this node (session-mode.ts): the Redis store, creation across the nodes. */
  mode: ClusterMode
  /** Starts the heartbeat and the ownership loop over this node's sessions; what the HTTP app adds. */
  start(system: SessionSystem): Promise<ClusterHttp>
  /** SIGTERM, first step: stop adopting and tell the others this node takes no more sessions. */
  leave(): Promise<void>
  /**
   * SIGTERM, last step (after the sessions closed and gave their leases back): the nodes they belong on now are
   * told to adopt them at once, then the heartbeat is removed and the store closed.
   */
  close(): Promise<void>
}

/**
 * What a cluster node reads: its own slice, the store's, the address it listens on (ADVERTISE_URL's default), and
 * the limits it applies across the nodes (per session in flight, sessions, unpaired ones, creations per client,
 * pairing codes per client and number, bodies it forwards, sessions it starts at once).
 */
export type ClusterNodeSettings = ClusterSettings &
  StoreSettings &
  Pick<
    HttpSettings,
    | 'HOST'
    | 'PORT'
    | 'TLS_CERT_FILE'
    | 'BODY_LIMIT_BYTES'
    | 'SESSION_CREATE_PER_MINUTE'
    | 'PAIRING_CODES_PER_PHONE_PER_HOUR'
    | 'PAIRING_CODES_PER_CLIENT_PER_HOUR'
    | 'SESSION_WAITS_PER_SESSION'
    | 'SESSION_WAITS_PER_PROCESS'
  > &
  Pick<
    ActorSettings,
    | 'MAX_PENDING_PER_SESSION'
    | 'MAX_SESSIONS'
    | 'UNPAIRED_MAX_PERCENT'
    | 'UNPAIRED_PER_CLIENT'
    | 'RESTORE_CONCURRENCY'
    | 'SHARDS'
  >

/** ADVERTISE_URL's default: the address listened on when it is one address, else the host name. */
function defaultAdvertiseUrl(host: string, port: number, tls: boolean): string {
  const name = host === '' || host === '0.0.0.0' || host === '::' ? os.hostname() : host
  return `${tls ? 'https' : 'http'}://${name.includes(':') ? `[${name}]` : name}:${port}`
}

/** Where earlier versions kept the nodes' shared token: whoever read Redis had it. Removed at start. */
const LEGACY_PEER_TOKEN_FIELD = 'peer-token'

export function openClusterNode(settings: ClusterNodeSettings, logger: Logger): ClusterNode {
  const log = logger.child({ component: 'cluster', node: settings.NODE_ID })
  const store = openClusterStore(settings, log).store
  const redis = () => store.connection()
  const auth = new PeerAuth(settings.CLUSTER_SECRET!, settings.NODE_ID)
  // this node's sessions, once the session system has opened the mode
  const local = () => mode.sessions()
  const forwarder = new Forwarder({
    auth,
    socketsPerPeer: settings.CLUSTER_FORWARD_SOCKETS,
    waitSocketsPerPeer: settings.SESSION_WAITS_PER_PROCESS,
    queueTimeoutMs: settings.CLUSTER_FORWARD_QUEUE_MS,
    answer: { answerMs: settings.CLUSTER_FORWARD_ANSWER_MS, stallMs: settings.CLUSTER_FORWARD_STALL_MS },
    ca: settings.CLUSTER_CA_FILE === undefined ? undefined : readFileSync(settings.CLUSTER_CA_FILE),
  })
  const directory = new NodeDirectory(redis, {
    node: settings.NODE_ID,
    url: new URL(
      settings.ADVERTISE_URL ?? defaultAdvertiseUrl(settings.HOST, settings.PORT, settings.TLS_CERT_FILE !== undefined),
    ).origin,
    heartbeatMs: settings.CLUSTER_HEARTBEAT_MS,
    // frozen past its leases' deadline: its sessions are gone, so it sits out placement for a while
    quietAfterGapMs: settings.CLUSTER_LEASE_TTL_MS - leaseMargin(settings.CLUSTER_LEASE_TTL_MS),
    rejoinQuietMs: settings.CLUSTER_REJOIN_QUIET_MS,
    sessions: () => local()?.localIds().length ?? 0,
    auth,
    requireTls: settings.CLUSTER_REQUIRE_TLS,
    onNodes: nodes => forwarder.retain(new Set(nodes.map(n => n.url))),
  })
  const routes = new ClusterRoutes(
    redis,
    directory,
    id => local()?.hosts(id) ?? false,
    () => local()?.localIds().length ?? 0,
  )
  const peers = peerCalls(forwarder, directory, log)
  const creation = clusterCreation({
    settings,
    store,
    directory,
    routes,
    peers,
    sessions: () => local()!,
    tag: key => auth.clientTag(key),
    log,
  })
  const viewTokens = new ViewTokenRoutes(settings.CLUSTER_SECRET!)
  const mode = clusterMode({ store, storeEngine: shardStoreEngine(settings), viewTokens, creation })
  let ownership: Ownership | undefined
  let handedOver: string[] = []

  return {
    mode,
    async start(system) {
      const sessions = local()!
      await (await redis()).command(['HDEL', META_KEY, LEGACY_PEER_TOKEN_FIELD])
      ownership = new Ownership({
        directory,
        sessions,
        redis,
        logger: log,
        heartbeatMs: settings.CLUSTER_HEARTBEAT_MS,
        rebalancePerSecond: settings.CLUSTER_REBALANCE_PER_SECOND,
        startConcurrency: settings.RESTORE_CONCURRENCY * settings.SHARDS,
        peers,
      })
      ownership.start()
      log.info({ url: directory.url }, 'cluster node started')
      const adopter = ownership
      const front = clusterFront({
        auth,
        sessions: new ClusterSessionAuth({
          readRecord: id => store.getSession(id),
          authenticLocally: (id, secret) => system.authenticate(id, secret) !== undefined,
        }),
        routes,
        forwarder,
        runsHere: id => sessions.hosts(id) && !sessions.leaving(id),
        leaving: id => sessions.leaving(id),
        adoptNow: ids => adopter.adoptNow(ids),
        viewTokens,
        bodyLimitBytes: settings.BODY_LIMIT_BYTES,
        perSessionInFlight: Math.min(
          settings.MAX_PENDING_PER_SESSION,
          sessionShare(settings.CLUSTER_FORWARD_SOCKETS, settings.CLUSTER_FORWARD_SESSION_PERCENT),
        ),
        waitsPerSession: settings.SESSION_WAITS_PER_SESSION,
        moveWaitMs: settings.CLUSTER_MOVE_WAIT_MS,
      })
      return {
        front,
        creationRate: clusterCreationRate(redis, key => auth.clientTag(key), settings.SESSION_CREATE_PER_MINUTE),
        pairingCodeBudget: clusterPairingCodeBudget(
          redis,
          { client: key => auth.clientTag(key), phone: phone => auth.phoneTag(phone) },
          settings,
        ),
        gauges: routes,
      }
    },
    async leave() {
      handedOver = local()?.localIds() ?? []
      await ownership?.stop()
      await directory.leave()
    },
    async close() {
      // the leases are back (the sessions closed): their next nodes start them now, not at their next beat; this
      // node's heartbeat goes first, so the nodes they plan with are without it
      const byNode = new Map<string, string[]>()
      for (const id of handedOver) {
        const home = homeOf(id, directory.placing())
        if (home !== undefined && home !== directory.node) byNode.set(home, [...(byNode.get(home) ?? []), id])
      }
      await directory.remove()
      await Promise.all([...byNode].map(([node, ids]) => peers.adopt(node, ids)))
      forwarder.close()
      await store.close()
    },
  }
}
