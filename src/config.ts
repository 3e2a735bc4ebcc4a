/**
 * @module config
 * Every setting of the gateway, read from the environment and validated once at start. The README lists them all.
 */
import dns from 'node:dns'
import net from 'node:net'
import os from 'node:os'
import proxyAddr from 'proxy-addr'
import { z } from 'zod'
import { DATA_KEY_FORMAT, isDataKey } from './storage/data-key.js'
import { ConfigError, describeConfigIssues } from './config-error.js'
import { CLUSTER_SETTINGS, checkClusterSettings } from './cluster/settings.js'
import { bool, int, optionalFile } from './config-fields.js'
import { PROXY_SETTINGS } from './proxy/proxy-settings.js'

/** TRUST_PROXY as express takes it: a boolean, a hop count, or the list as written. */
function trustProxyValue(v: string): boolean | number | string {
  const t = v.trim()
  if (t === 'true' || t === 'false') return t === 'true'
  return /^\d+$/.test(t) ? Number(t) : t
}

/** What c-ares would refuse to use as a DNS server list. */
function isDnsServerList(servers: string[]): boolean {
  try {
    new dns.Resolver().setServers(servers)
    return true
  } catch {
    return false
  }
}

/** Hosts SANDBOX_URL may name over plain http: the sandbox is a loopback server (src/sandbox). */
const LOOPBACK = new net.BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/**
 * The gateway trusts whatever root key and CA the sandbox's `/trust` names, so that answer must not be readable or
 * changeable on the way: a loopback address, or https. An unparsable value passes here for `.url()` to name.
 */
function isSandboxUrlSafe(value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return true
  }
  if (url.protocol === 'https:') return true
  if (url.protocol !== 'http:') return false
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost') return true
  const kind = net.isIP(host)
  return kind !== 0 && LOOPBACK.check(host, kind === 4 ? 'ipv4' : 'ipv6')
}

/** A bearer token: long, and one word (`Bearer <token>` can never carry whitespace, so such a token never matches). */
const bearerToken = () =>
  z.preprocess(
    v => (v === '' ? undefined : v),
    z
      .string()
      .min(16, 'must be at least 16 characters (use a long random value)')
      .refine(v => !/\s/.test(v), 'must not contain whitespace (a bearer token is one word)')
      .optional(),
  )

/** A list express could not compile (`10.0.0.0/33`, `proxy.local`) stops the start, as any bad setting does. */
function isTrustProxyList(v: string): boolean {
  const t = v.trim()
  if (t === 'true' || t === 'false' || /^\d+$/.test(t)) return true
  try {
    proxyAddr.compile(t.split(',').map(s => s.trim()))
    return true
  } catch {
    return false
  }
}

const schema = z.object({
  PORT: int(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /**
   * When lmdb flushes its commits to disk (README, durability): `commit` = after every commit, overlapping the next
   * one; `second` = once a second. A 200 means committed either way (a crash or kill -9 of the process loses
   * nothing); a power cut or kernel crash can lose the commits not yet flushed: under `second`, up to about a second.
   */
  STORE_FLUSH: z.enum(['commit', 'second']).default('commit'),
  /** The platform sandbox instead of the platform: http on loopback (127.0.0.0/8, ::1, localhost) or https only. */
  SANDBOX_URL: z
    .string()
    .url()
    .refine(isSandboxUrlSafe, 'expected http on a loopback address (127.0.0.0/8, ::1, localhost) or an https URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Log lines: JSON, or pino-pretty for people; auto = pretty only when stdout is a terminal (src/logger.ts). */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  /** Unscanned sessions are deleted after this long (spec: about 3 minutes). */
  SESSION_QR_LIFETIME_MS: int(180_000, 1),
  /**
   * Where people reach the gateway's QR page, for the links POST /session/view-link hands out (e.g.
   * `https://gateway.example.com`); unset = the address the API caller used (its Host header, and X-Forwarded-*
   * when TRUST_PROXY believes the proxy).
   */
  PUBLIC_URL: z
    .string()
    .url()
    .refine(u => /^https?:\/\//.test(u), 'must be an http or https URL')
    .optional(),
  /** Worker threads hosting session actors; a session always lives on the same one. */
  SHARDS: int(Math.max(2, os.availableParallelism()), 1),
  /**
   * The young generation of each shard thread's heap, MB (V8's new space, where short-lived objects start, is two
   * thirds of it). Left alone V8 grows a busy thread's new space to 64 MB and an idle one keeps it; this caps it
   * (BENCHMARKS.md, issue 19).
   */
  SHARD_YOUNG_GENERATION_MB: int(24, 3),
  /**
   * Commands in flight per shard before admission turns fair (src/actors/main/admission.ts): past it, only sessions
   * holding less than an even share still get in (the others 429); past twice it, 503 for everyone.
   */
  MAX_QUEUE_PER_SHARD: int(1_000, 1),
  /** Commands one session may have in flight or queued (429 with Retry-After beyond): one tenant cannot fill a shard. */
  MAX_PENDING_PER_SESSION: int(32, 1),
  /** Reads (GET /group..., GET /channel...) per session: sustained rate and burst, then 429; rate 0 = no limit. */
  READ_RATE_PER_SECOND: z.coerce.number().min(0).default(10),
  READ_BURST: int(50, 1),
  /** At most one POST /session/reset per session this often (each opens a platform connection); 0 = no limit. */
  RESET_INTERVAL_MS: int(30_000, 0),
  /**
   * At most one POST /session/pairing-code per session this often: each is a platform round trip and a notification
   * on the phone of the number given; 0 = no limit.
   */
  PAIRING_CODE_INTERVAL_MS: int(10_000, 0),
  /** A never-paired session is deleted this long after it was created (or last logged out), resets or not. */
  UNPAIRED_MAX_LIFETIME_MS: int(10 * 60_000, 1),
  /** Unpaired sessions one client (address, IPv6 /64) may hold at once (429 beyond); 0 = no cap. Not for callers
   * that proved CREATE_SESSION_TOKEN. */
  UNPAIRED_PER_CLIENT: int(10, 0),
  /** Sessions awaiting a scan at once, as a percentage of MAX_SESSIONS, whoever created them (503 beyond). */
  UNPAIRED_MAX_PERCENT: int(20, 1).refine(v => v <= 100, 'expected 1..100'),
  /**
   * Which reverse proxies to believe for the client's address (express' `trust proxy`): false (default: the peer
   * is the client), true (the left-most X-Forwarded-For), a hop count, or a comma list of addresses, subnets and
   * the names loopback, linklocal, uniquelocal.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .refine(isTrustProxyList, 'expected true, false, a hop count, or a comma list of addresses or subnets')
    .transform(trustProxyValue),
  /**
   * Media downloads (POST /message, POST /status): the ceiling over every type's own cap below, as large as the
   * largest of them (documents). Thumbnail URLs are bounded by the image cap.
   */
  MEDIA_MAX_BYTES: int(2 * 1024 * 1024 * 1024, 1),
  MEDIA_TIMEOUT_MS: int(60_000, 1),
  /**
   * Media sends doing CPU work (thumbnails, recompression, encryption, upload) at once per shard thread and in the
   * whole process; the rest wait their turn (src/media/media-slots.ts). A send takes a slot only once its files are
   * downloaded, and gives it back before waiting for the platform's ack. They bound how much of the cores media can
   * take from the quiet sessions and the HTTP front.
   */
  MEDIA_SENDS_PER_SHARD: int(2, 1),
  MEDIA_SENDS_PER_PROCESS: int(3, 1),
  /**
   * Media sends downloading, or holding downloaded files, at once in the process (each session at most one); the
   * rest wait their turn. Large, because a download that makes no progress costs a socket and a file, not CPU: it
   * bounds the temp disk and sockets media holds, and takes that many slow tenants to keep another waiting.
   */
  MEDIA_DOWNLOADS_PER_PROCESS: int(32, 1),
  /**
   * Largest image, in pixels (width × height), the gateway decodes (sharp's `limitInputPixels`): an image or status
   * image over it is refused with a 400 before decoding, a thumbnail URL over it gives way to the media's own.
   */
  MEDIA_MAX_PIXELS: int(100_000_000, 1),
  /**
   * The CPU priority (nice, 0..19) of the threads that encrypt and upload media (src/media/upload): 19 lets media
   * use only the CPU the sessions and the HTTP front leave idle. 0 runs it at the gateway's own priority.
   */
  MEDIA_THREAD_NICE: int(19, 0).refine(v => v <= 19, 'expected 0..19'),
  MEDIA_MAX_REDIRECTS: int(5, 0),
  /**
   * DNS for media URLs (src/media/media-resolver.ts): c-ares, off the thread pool file I/O shares. Servers as
   * `ip` or `ip:port`, comma-separated (empty: the system's), a time-out per look-up, and look-ups in flight per thread.
   */
  MEDIA_DNS_SERVERS: z
    .string()
    .default('')
    .transform(v =>
      v
        .split(',')
        .map(s => s.trim())
        .filter(Boolean),
    )
    .refine(isDnsServerList, 'expected a comma list of ip or ip:port'),
  MEDIA_DNS_TIMEOUT_MS: int(5_000, 1),
  MEDIA_DNS_MAX_IN_FLIGHT: int(64, 1),
  /** Allow media URLs that resolve to loopback/private/link-local/metadata addresses (SSRF guard off). Only the sandbox demo, tests and benches set true. */
  MEDIA_ALLOW_PRIVATE_URLS: bool(false),
  /** How long POST /message and POST /status wait for the platform's server ack. */
  ACK_TIMEOUT_MS: int(20_000, 1),
  /** Timeout for platform queries (groups, channels, privacy). */
  QUERY_TIMEOUT_MS: int(20_000, 1),
  /** POST /session per client address and minute (429 above it); 0 = no limit. */
  SESSION_CREATE_PER_MINUTE: int(30, 0),
  /**
   * GET /session?wait (src/http/session-wait): the longest a request waits for a change (a longer `wait` is cut to
   * it; 0 = never wait), kept under the 60 s idle timeout of common load balancers. Then the waiting requests one
   * session (and as many again through its view links), one client and the whole process may hold (429 beyond).
   */
  SESSION_WAIT_MAX_SECONDS: int(30, 0).refine(v => v <= 55, 'expected 0..55'),
  SESSION_WAITS_PER_SESSION: int(4, 1),
  SESSION_WAITS_PER_CLIENT: int(1_000, 1),
  SESSION_WAITS_PER_PROCESS: int(10_000, 1),
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
  /**
   * Check the platform's signatures (Noise certificate chain, the phone's account signature at pairing) that
   * Baileys rc14 skips. Only set false to measure the check's cost or to compare behaviour deliberately.
   */
  VERIFY_PLATFORM_SIGNATURES: bool(true),
  /** When set, POST /session needs `authorization: Bearer <token>` (401 otherwise); unset = open, as the spec has it. */
  CREATE_SESSION_TOKEN: bearerToken(),
  /** When set, GET /metrics needs `authorization: Bearer <token>` (401 otherwise); unset = open to anyone. */
  METRICS_TOKEN: bearerToken(),
  /** Serve the OpenAPI document (/openapi.json) and its reference page (/docs); false = 404 for both. */
  API_DOCS: bool(true),
  /** When set, stored credentials, Signal keys and contacts are encrypted (AES-256-GCM) with this 32-byte key. */
  DATA_KEY: z.preprocess(v => (v === '' ? undefined : v), z.string().refine(isDataKey, DATA_KEY_FORMAT).optional()),
  /** Limits (README: Limits). Longest `text` of POST /message and POST /status (the platform's own cap). */
  TEXT_MAX_CHARS: int(65_536, 1),
  /**
   * Largest media per type (400 above it), each also bounded by MEDIA_MAX_BYTES. Documents: the platform's own 2 GB
   * (media is streamed to disk, hashed and uploaded from there, so a large one costs disk and time, not memory).
   */
  MEDIA_MAX_BYTES_IMAGE: int(16 * 1024 * 1024, 1),
  MEDIA_MAX_BYTES_VIDEO: int(64 * 1024 * 1024, 1),
  MEDIA_MAX_BYTES_AUDIO: int(16 * 1024 * 1024, 1),
  MEDIA_MAX_BYTES_DOCUMENT: int(2 * 1024 * 1024 * 1024, 1),
  /** Largest thumbnail download (`*.thumbnail`): it only becomes a 72 px preview. Over it, the preview is made
   * from the media itself, as for any thumbnail that fails. Also bounded by MEDIA_MAX_BYTES. */
  MEDIA_MAX_BYTES_THUMBNAIL: int(5 * 1024 * 1024, 1),
  /** Sessions one process holds, or in cluster mode the whole cluster (POST /session answers 503 when full); 0 = no cap. */
  MAX_SESSIONS: int(2_500, 0),
  /** Sends (POST /message, /status, /typing) per session: sustained rate and burst, then 429; rate 0 = no limit. */
  SEND_RATE_PER_SECOND: z.coerce.number().min(0).default(10),
  SEND_BURST: int(50, 1),
  /** Test-only hooks (SIGUSR2 ends one shard's worker thread); never set in production. */
  GATEWAY_TEST_HOOKS: bool(false),
  /** The ffmpeg for video thumbnails; unset = `ffmpeg` on PATH; none found = the default thumbnail (src/media/ffmpeg-locate.ts). */
  FFMPEG_PATH: z.preprocess(v => (v === '' ? undefined : v), z.string().optional()),
  /** Wall clock one ffmpeg run may take before it is killed (the video then gets the default thumbnail). */
  FFMPEG_TIMEOUT_MS: int(15_000, 1),
  /** Address space of one ffmpeg run (prlimit --as); Debian's ffmpeg maps about 300 MB of libraries before decoding. */
  FFMPEG_MAX_MEMORY_MB: int(1024, 1),
  /** CPU time of one ffmpeg run (prlimit --cpu; the kernel kills it past that). */
  FFMPEG_MAX_CPU_SECONDS: int(10, 1),
  /**
   * Sent messages kept per session to answer recipients' retry receipts after a restart (src/storage/sent-messages.ts):
   * how long (a phone that was offline asks when the platform delivers to it, often hours later) and how many; 0 = none.
   */
  RETRY_STORE_MAX_AGE_MS: int(24 * 60 * 60_000, 1),
  RETRY_STORE_MAX_MESSAGES: int(256, 0),
  /** Sessions each shard brings up at once on start (the rest wait their turn; a command starts its own at once). */
  RESTORE_CONCURRENCY: int(25, 1),
  /** How long one restoring session may hold its slot while its link is still connecting. */
  RESTORE_SLOT_MS: int(10_000, 1),
  /** Serve HTTPS on PORT with this certificate chain and key (PEM files); needed for `https://` ADVERTISE_URLs. */
  TLS_CERT_FILE: optionalFile(),
  TLS_KEY_FILE: optionalFile(),
  ...CLUSTER_SETTINGS,
  /** A proxy per session (README: A proxy per session): src/proxy/proxy-settings.ts. */
  ...PROXY_SETTINGS,
})

export type Config = z.infer<typeof schema>

/** Every setting's name, for the README check (test/unit/config.test.ts). */
export const SETTING_NAMES: readonly string[] = Object.keys(schema.shape)

/** Parses settings; throws a ConfigError whose message is one line naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env)
  if (!parsed.success) throw new ConfigError(describeConfigIssues(parsed.error.issues, env))
  const problem = checkClusterSettings(parsed.data, env)
  if (problem) throw new ConfigError(problem)
  if ((parsed.data.TLS_CERT_FILE === undefined) !== (parsed.data.TLS_KEY_FILE === undefined))
    throw new ConfigError(
      'invalid setting TLS_KEY_FILE: TLS_CERT_FILE and TLS_KEY_FILE go together, set both or neither',
    )
  return parsed.data
}
