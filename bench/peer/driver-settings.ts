/**
 * The side-by-side driver's settings, from the environment (run-all.sh passes them through), with the values every
 * figure in BENCHMARKS.md was measured at as defaults.
 */
const env = (name: string, fallback: string) => process.env[name] ?? fallback
const num = (name: string, fallback: number) => Number(env(name, String(fallback)))

export type BurstMode = 'one' | 'distinct' | 'none'

export const settings = {
  /** Sessions paired, CONCURRENCY at a time. */
  N: num('N', 50),
  CONCURRENCY: num('CONCURRENCY', 5),
  /** The gateway's age before RSS at 0 sessions is read (it settles after its start). */
  BASE_WAIT_S: num('BASE_WAIT_S', 5),
  /** Idle CPU with 0 sessions over this long; 0 skips it. */
  IDLE0_S: num('IDLE0_S', 30),
  /** After pairing, before RSS with N idle is read. */
  SETTLE_S: num('SETTLE_S', 30),
  /** Idle CPU with N connected over this long. */
  IDLE_S: num('IDLE_S', 60),
  /** The burst: LOOPS closed send loops for SEND_S to one contact (Bob), to LOOPS distinct contacts, or none. */
  MODE: env('MODE', 'one') as BurstMode,
  SEND_S: num('SEND_S', 30),
  LOOPS: num('LOOPS', 20),
  /** CPU after the burst counted with it (the last acks and receipts). */
  TAIL_S: num('TAIL_S', 5),
  /** How long the answered sends may take to show in the recipients' inboxes. */
  ARRIVE_WAIT_S: num('ARRIVE_WAIT_S', 60),
  /** The sessions' phones (the sandbox registers them on first use), the one contact, the distinct contacts. */
  PHONE_BASE: num('PHONE_BASE', 15550300000),
  CONTACT: env('CONTACT', '15550000002'),
  DISTINCT_BASE: num('DISTINCT_BASE', 15550000100),
  SANDBOX_URL: env('SANDBOX_URL', 'http://127.0.0.1:7800'),
  GATEWAY_URL: env('GATEWAY_URL', ''),
  /** The peer's API key (its `x-api-key`), made by run-all.sh. */
  API_KEY: env('API_KEY', ''),
  /** Where the peer's webhooks (QR codes, connection states) arrive, on loopback. */
  SINK_PORT: num('SINK_PORT', 3901),
  TAG: env('TAG', ''),
  /** The result file. */
  OUT: env('OUT', ''),
}

if (!['one', 'distinct', 'none'].includes(settings.MODE)) throw new Error(`MODE must be one, distinct or none`)
if (settings.MODE !== 'none' && settings.LOOPS > settings.N)
  throw new Error(`LOOPS (${settings.LOOPS}) > N (${settings.N})`)
