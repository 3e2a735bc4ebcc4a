/**
 * @module bench/lib/settings
 * Short or long runs: every bench has modest defaults so `npm run bench` finishes in minutes, and the figures the
 * issue defines at full size (1,000 sessions, a 20-minute soak...) behind `--long` or BENCH_LONG=1. Any single
 * setting can be overridden by its environment variable (e.g. BENCH_SESSIONS=300).
 */
export const isLong = process.argv.includes('--long') || process.env.BENCH_LONG === '1'

/** A number setting: the env variable when set, else the long or the short default. */
export function setting(envName: string, short: number, long = short): number {
  const raw = process.env[envName]
  if (raw === undefined || raw === '') return isLong ? long : short
  const v = Number(raw)
  if (!Number.isFinite(v)) throw new Error(`${envName} must be a number, got ${raw}`)
  return v
}

/** Printed by a short run so nobody mistakes a short figure for the full-size one. */
export function longHint(what: string): void {
  if (!isLong) console.log(`  (short run; the full-size figure (${what}) runs with --long or BENCH_LONG=1)`)
}
