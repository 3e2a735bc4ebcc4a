/**
 * @module cluster/session-mode
 * The session system as one node of a cluster (actors/main/session-mode.ts `SessionMode`): its shards store in Redis
 * under each session's lease (store/shard-store.ts) and follow the cluster's policy; nothing stored starts at boot
 * (the ownership loop adopts the sessions that belong here: local-sessions.ts); a new session is registered under
 * the cluster's limits and placed on the least loaded node (creation.ts); a request to a session arriving here waits
 * for its link, and one reaching a closing node is told the session is moving.
 */
import { CLUSTER_POLICY } from '../protocol/session-policy.js'
import type { StoreEngine } from '../protocol/thread.js'
import type { SessionCreation, SessionMode, ViewTokenMinter } from '../actors/main/session-mode.js'
import { localSessions, type LocalSessions, type LocalSessionsOnMain } from './local-sessions.js'
import type { RedisStore } from './store/redis-store.js'

export interface ClusterModeParts {
  store: RedisStore
  storeEngine: StoreEngine
  viewTokens: ViewTokenMinter
  creation: SessionCreation
}

export interface ClusterMode extends SessionMode {
  /** This node's sessions, as the ownership loop moves them; undefined until the session system opened the mode. */
  sessions(): LocalSessions | undefined
}

export function clusterMode(o: ClusterModeParts): ClusterMode {
  let local: LocalSessionsOnMain | undefined
  return {
    policy: CLUSTER_POLICY,
    storeEngine: o.storeEngine,
    store: o.store,
    viewTokens: o.viewTokens,
    closedError: 'SESSION_MOVING',
    sessions: () => local,
    open(parts) {
      const sessions = localSessions(parts)
      local = sessions
      return {
        boot: async () => undefined,
        creation: o.creation,
        // the row names no shard: the node that adopts the session places it on one of its own
        shardOfNew: () => undefined,
        threadLost(_shard, inShard) {
          // the new thread restores nothing by itself: this node's sessions of the shard start again
          for (const id of sessions.localIds()) {
            if (!inShard(id)) continue
            parts
              .startActor(id)
              .catch(err => parts.log.error({ err, session: id }, 'could not start the session actor again'))
          }
        },
        ready: sessions.ready,
        isMoving: sessions.isMoving,
      }
    },
  }
}
