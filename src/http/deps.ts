/**
 * @module http/deps
 * What `createApp` is given (`AppDeps`), and what it hands every endpoint (`EndpointDeps`).
 */
import type { Logger } from 'pino'
import type { SessionSystem } from '../actors/main/session-system.js'
import type { Config } from '../config.js'
import type { ClusterRoutes } from '../cluster/routing.js'
import type { SessionWaits } from './session-wait/long-poll.js'

export interface AppDeps {
  system: SessionSystem
  config: Config
  logger: Logger
  /** Cluster mode (REDIS_URL): where requests for sessions of other nodes go (http/cluster-routing.ts). */
  cluster?: ClusterRoutes
}

/** What `createApp` gives each endpoint: the app's deps and the parts it makes once for all of them. */
export interface EndpointDeps extends AppDeps {
  /** The waiting GET /session and GET /session/qr (session-wait/long-poll.ts). */
  waits: SessionWaits
}
