/**
 * @module http/deps
 * What every endpoint and part of the app receives from `createApp`.
 */
import type { Logger } from 'pino'
import type { SessionSystem } from '../actors/main/session-system.js'
import type { Config } from '../config.js'
import type { ClusterRoutes } from '../cluster/routing.js'

export interface AppDeps {
  system: SessionSystem
  config: Config
  logger: Logger
  /** Cluster mode (REDIS_URL): where requests for sessions of other nodes go (http/cluster-routing.ts). */
  cluster?: ClusterRoutes
}
