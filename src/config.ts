/**
 * @module config
 * Every setting of the gateway, read from the environment and validated once at start. The README lists them all.
 */
import os from 'node:os'
import { z } from 'zod'

const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def)
const bool = (def: boolean) =>
  z.enum(['true', 'false', '1', '0']).default(def ? 'true' : 'false').transform(v => v === 'true' || v === '1')

const schema = z.object({
  PORT: int(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  SANDBOX_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Unscanned sessions are deleted after this long (spec: about 3 minutes). */
  SESSION_QR_LIFETIME_MS: int(180_000, 1),
  /** Worker threads hosting session actors; a session always lives on the same one. */
  SHARDS: int(Math.max(2, os.availableParallelism()), 1),
  /** Commands waiting per shard before the gateway answers 503. */
  MAX_QUEUE_PER_SHARD: int(1_000, 1),
  /** Media downloads (POST /message, POST /status). */
  MEDIA_MAX_BYTES: int(64 * 1024 * 1024, 1),
  MEDIA_TIMEOUT_MS: int(60_000, 1),
  MEDIA_MAX_REDIRECTS: int(5, 0),
  /** Allow media URLs that resolve to loopback/private/link-local/metadata addresses (SSRF guard off). Only the sandbox demo, tests and benches set true. */
  MEDIA_ALLOW_PRIVATE_URLS: bool(false),
  /** How long POST /message and POST /status wait for the platform's server ack. */
  ACK_TIMEOUT_MS: int(20_000, 1),
  /** Timeout for platform queries (groups, channels, privacy). */
  QUERY_TIMEOUT_MS: int(20_000, 1),
  /** POST /session per client address and minute (429 above it); 0 = no limit. */
  SESSION_CREATE_PER_MINUTE: int(30, 0),
  /** JSON body limit for POST requests. */
  BODY_LIMIT_BYTES: int(1024 * 1024, 1),
  /** Persisted-query id of the platform's "subscribed newsletters" query (the platform rotates these). */
  CHANNEL_LIST_QUERY_ID: z.string().default('6388546374527196'),
  /** Typing indicator duration (spec: 5 seconds). */
  TYPING_MS: int(5_000, 1),
  /** Reconnect backoff after a dropped connection. */
  RECONNECT_MIN_MS: int(1_000, 1),
  RECONNECT_MAX_MS: int(60_000, 1),
  /** Group pictures fetched at once, and how long a fetched picture URL is reused. */
  PICTURE_CONCURRENCY: int(4, 1),
  PICTURE_CACHE_MS: int(10 * 60_000, 0),
  /** Grace period for in-flight requests on SIGTERM. */
  SHUTDOWN_GRACE_MS: int(10_000, 0),
  /** Sessions each shard brings up at once on start (the rest wait their turn; a command starts its own at once). */
  RESTORE_CONCURRENCY: int(25, 1),
  /** How long one restoring session may hold its slot while its link is still connecting. */
  RESTORE_SLOT_MS: int(10_000, 1),
})

export type Config = z.infer<typeof schema>

/** Parses settings; throws one readable error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(i => `${i.path.join('.')}: ${i.message}`)
    throw new Error(`invalid settings:\n${lines.join('\n')}`)
  }
  return parsed.data
}
