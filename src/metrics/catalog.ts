/**
 * @module metrics/catalog
 * The counters that worker threads report to the main thread, by short key. The threads count by key
 * (`src/metrics/thread-counters.ts`); the main registry (`src/metrics/registry.ts`) exposes them under these names.
 * Label values must come from small fixed sets (codes, reasons), never from ids or URLs.
 */
import type { CounterSample } from '../protocol/thread.js'

export const THREAD_COUNTERS = {
  acks: {
    name: 'gateway_platform_acks_total',
    help: 'Server acks of sent messages and statuses: result "ok", "error" (an error ack) or "timeout" (none in time)',
    labelNames: ['result'],
  },
  errorAcks: {
    name: 'gateway_platform_error_acks_total',
    help: 'Error acks from the platform, by the error code it sent',
    labelNames: ['code'],
  },
  mediaBytes: {
    name: 'gateway_media_downloaded_bytes_total',
    help: 'Bytes of media downloaded from client-given URLs',
    labelNames: [],
  },
  mediaDownloads: {
    name: 'gateway_media_downloads_total',
    help: 'Media downloads from client-given URLs, by result ("ok" or a failure reason)',
    labelNames: ['result'],
  },
  reconnects: {
    name: 'gateway_reconnects_total',
    help: 'Platform connections re-opened after a drop (each backoff-scheduled attempt)',
    labelNames: [],
  },
  fencedWrites: {
    name: 'gateway_cluster_fenced_writes_refused_total',
    help: "Cluster mode: session writes refused because this node no longer held the session's lease with its epoch",
    labelNames: [],
  },
  takeovers: {
    name: 'gateway_cluster_takeovers_total',
    help: 'Cluster mode: session leases this node acquired that another node held last (a hand-over or a take-over)',
    labelNames: [],
  },
  sessionsReleased: {
    name: 'gateway_cluster_sessions_released_total',
    help: 'Cluster mode: sessions this node stopped for another to run: reason "hand-over" (placement) or "step-down" (another node holds the lease)',
    labelNames: ['reason'],
  },
  forwarded: {
    name: 'gateway_cluster_forwarded_requests_total',
    help: 'Cluster mode: authenticated requests forwarded to the session\'s node, by result: "ok" (answered), "moving" (the node was handing the session over: asked again), "unreachable", "busy" (no connection to it within CLUSTER_FORWARD_QUEUE_MS), "aborted" (the client left), "cut" (its answer was not read through within CLUSTER_FORWARD_ANSWER_MS, or stood still CLUSTER_FORWARD_STALL_MS: both connections closed)',
    labelNames: ['result'],
  },
} as const satisfies Record<string, { name: string; help: string; labelNames: readonly string[] }>

export type ThreadCounterKey = keyof typeof THREAD_COUNTERS

/** A counter sample of one of these series (the thread contract's `CounterSample`, protocol/thread.ts). */
export type ThreadCounterSample = CounterSample<ThreadCounterKey>
