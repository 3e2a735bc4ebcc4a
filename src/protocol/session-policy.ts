/**
 * @module protocol/session-policy
 * What a shard and its actors do differently when the sessions are shared by a cluster, as plain data (it crosses
 * to the worker thread in `ShardWorkerData`): the actors follow it and never ask which mode they run in.
 */
export interface SessionPolicy {
  /**
   * Whether a shard thread starts every stored session of its shard by itself (one process owns the store), or
   * only those the main thread gives it (cluster mode: the node's ownership loop adopts those that belong here).
   */
  restoresStored: boolean
  /**
   * What a command gets that reaches a session stopped here without being deleted: 'shutting-down' (the process is
   * stopping) or 'moving' (another node runs it now, or will in a moment: 503 SESSION_MOVING, and a node that
   * forwarded the request asks again where it runs).
   */
  stoppedAnswer: 'shutting-down' | 'moving'
  /**
   * How long a stopping session lets its running commands settle after its link closed, in ms; undefined: as long
   * as they take. In a cluster the session's next owner waits for its lease, not for a query stuck on a closed
   * socket: past this the lease goes back without a clean stop (the next owner renews Signal sessions).
   */
  releaseSettleMs: number | undefined
}

export const EMBEDDED_POLICY: SessionPolicy = {
  restoresStored: true,
  stoppedAnswer: 'shutting-down',
  releaseSettleMs: undefined,
}

export const CLUSTER_POLICY: SessionPolicy = {
  restoresStored: false,
  stoppedAnswer: 'moving',
  releaseSettleMs: 3_000,
}
