/**
 * @module cluster/creation
 * POST /session in cluster mode: the node the client reached creates the session itself, whichever node it will
 * run on, so nothing unauthenticated ever crosses to another node. It picks the least loaded node, draws ids that
 * belong there (placement.ts), and registers the row under the cluster's limits in one Redis script
 * (cluster/store/registry.ts: MAX_SESSIONS, the share of unpaired sessions, UNPAIRED_PER_CLIENT), then starts it:
 * here, or by telling that node to adopt it now (`POST /_cluster/adopt`, signed). Should that node not answer,
 * it adopts the session on its next heartbeat, or another node does if it is gone.
 */
import type { Logger } from 'pino'
import type { ActorSettings } from '../actors/settings.js'
import { GatewayError, retryAfterFromMs } from '../protocol/errors.js'
import { newSessionIds, unpairedCap, unpairedFull, type SessionCreation } from '../actors/main/session-mode.js'
import type { LocalSessions } from './local-sessions.js'
import type { RedisStore } from './store/redis-store.js'
import { drawIdHomedAt } from './placement.js'
import type { NodeDirectory } from './node-directory.js'
import type { ClusterRoutes } from './routing.js'
import type { PeerCalls } from './peer-calls.js'

export interface ClusterCreationParts {
  settings: Pick<ActorSettings, 'MAX_SESSIONS' | 'UNPAIRED_MAX_PERCENT' | 'UNPAIRED_PER_CLIENT'>
  store: RedisStore
  directory: NodeDirectory
  routes: ClusterRoutes
  peers: PeerCalls
  /** This node's sessions (known once the node has started). */
  sessions: () => LocalSessions
  /** A client's name in Redis (peer-auth.ts `clientTag`). */
  tag: (clientKey: string) => string
  log: Logger
}

export function clusterCreation(parts: ClusterCreationParts): SessionCreation {
  const { settings, directory } = parts
  const cap = unpairedCap(settings)
  return {
    draw() {
      const node = parts.routes.placeNew()
      const nodes = [...new Set([...directory.placing(), node])]
      return { ...drawIdHomedAt(newSessionIds, node, nodes), node }
    },
    async register(record, client) {
      let verdict: Awaited<ReturnType<RedisStore['registerNew']>>
      try {
        verdict = await parts.store.registerNew(record, {
          maxSessions: settings.MAX_SESSIONS,
          unpairedCap: cap,
          perClientCap: client.trusted ? 0 : settings.UNPAIRED_PER_CLIENT,
          clientTag: parts.tag(client.key),
        })
      } catch (err) {
        parts.log.error({ err }, 'could not register a new session')
        throw new GatewayError('STORAGE_UNAVAILABLE')
      }
      if (verdict.ok) return
      switch (verdict.reason) {
        case 'full':
          throw new GatewayError('SESSIONS_FULL', { max: settings.MAX_SESSIONS })
        case 'unpaired':
          throw unpairedFull(cap, verdict.retryMs)
        case 'client':
          throw new GatewayError('UNPAIRED_CAP', {
            max: settings.UNPAIRED_PER_CLIENT,
            retryAfterSeconds: retryAfterFromMs(verdict.retryMs),
          })
        default:
          // 144 random bits drawn twice: never; say so rather than overwrite a session
          throw new GatewayError('INTERNAL', { cause: 'a new session id collided with a registered one' })
      }
    },
    async start(record, node) {
      if (node === undefined || node === directory.node) {
        await parts.sessions().adopt(record.id)
        return
      }
      await parts.peers.adopt(node, [record.id])
    },
  }
}
