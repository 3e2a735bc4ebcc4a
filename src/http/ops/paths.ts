/**
 * @module http/ops/paths
 * The operations endpoints. They answer before any session check, and log at debug (probes poll them).
 */
export const HEALTHZ_PATH = '/healthz'
export const READYZ_PATH = '/readyz'
export const METRICS_PATH = '/metrics'

export const OPS_PATHS: ReadonlySet<string> = new Set([HEALTHZ_PATH, READYZ_PATH, METRICS_PATH])
