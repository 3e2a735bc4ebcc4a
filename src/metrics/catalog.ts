/**
 * @module metrics/catalog
 * The counters that worker threads report to the main thread, by short key. The threads count by key
 * (`src/metrics/thread-counters.ts`); the main registry (`src/metrics/registry.ts`) exposes them under these names.
 * Label values must come from small fixed sets (codes, reasons), never from ids or URLs.
 */
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
} as const satisfies Record<string, { name: string; help: string; labelNames: readonly string[] }>

export type ThreadCounterKey = keyof typeof THREAD_COUNTERS

export type CounterLabels = Record<string, string>

/** One counter series and how much it grew (a batch) or its total (the main thread's sum). */
export interface CounterSample {
  key: ThreadCounterKey
  labels: CounterLabels
  value: number
}

/** Event-loop delay of one thread over the last interval, in seconds. */
export interface LoopDelay {
  p50: number
  p99: number
  max: number
}

/** What a thread posts on the metrics channel. */
export type TelemetryMessage =
  | { type: 'batch'; thread: string; counters: CounterSample[]; loop: LoopDelay }
  | { type: 'restored'; shard: number }

export const metricsChannel = (name: string): string => `${name}:metrics`
