/**
 * @module actors/session/backoff
 * Reconnect delays after a dropped connection: exponential from RECONNECT_MIN_MS to RECONNECT_MAX_MS, with jitter
 * (50-100 % of the step) so many sessions dropped by one network blip do not reconnect in lockstep.
 */
export function reconnectDelay(
  attempt: number,
  minMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const step = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 30))
  return Math.round(step * (0.5 + random() / 2))
}
