/**
 * @module http/deps
 * What `createApp` is given (`AppDeps`), and what it hands every endpoint (`EndpointDeps`).
 */
import type { RequestHandler } from 'express'
import type { Logger } from 'pino'
import type { SessionSystem } from '../actors/main/session-system.js'
import { proxyPolicySettings, type ProxyPolicySettings } from '../proxy/proxy-policy.js'
import { httpSettings, type HttpSettings } from './settings.js'
import type { CreationRate } from './limits/creation-gate.js'
import type { PairingCodeBudget } from './limits/pairing-code-budget.js'
import type { ClusterGaugeSource } from '../metrics/cluster-metrics.js'
import type { SessionWaits } from './session-wait/long-poll.js'
import type { AnswerBudget } from './answers/answer-budget.js'
import type { ConnectionGuard } from './connections/connection-guard.js'

/** The settings the app reads: its own slice, and the proxy policy POST /session and PUT /session/proxy apply. */
export type AppSettings = HttpSettings & ProxyPolicySettings

/** Exactly the app's settings out of the whole. */
export const appSettings = (settings: HttpSettings & ProxyPolicySettings): AppSettings => ({
  ...httpSettings(settings),
  ...proxyPolicySettings(settings),
})

export interface AppDeps {
  system: SessionSystem
  settings: AppSettings
  logger: Logger
  /** Cluster mode (REDIS_URL): what the node adds to the app (cluster/cluster-node.ts). */
  cluster?: ClusterHttp
  /** The process's budget of answer bytes waiting for their clients; createApp makes one from the settings when
   * absent, and hands it to every endpoint. */
  answers?: AnswerBudget
  /** The server's connection caps and write time-out (http/server.ts), for /metrics; absent: not counted there. */
  connections?: ConnectionGuard
}

export interface ClusterHttp {
  /** In front of every endpoint: authenticates a request for another node's session and forwards it (cluster/front.ts). */
  front: RequestHandler
  /** POST /session's per-client buckets, shared by every node. */
  creationRate: CreationRate | undefined
  /** POST /session/pairing-code's codes per number and per client, shared by every node. */
  pairingCodeBudget: PairingCodeBudget
  /** The node's gauges for /metrics. */
  gauges: ClusterGaugeSource
}

/** What `createApp` gives each endpoint: the app's deps and the parts it makes once for all of them. */
export interface EndpointDeps extends AppDeps {
  answers: AnswerBudget
  /** The waiting GET /session and GET /session/qr (session-wait/long-poll.ts). */
  waits: SessionWaits
}
