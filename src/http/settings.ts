/**
 * @module http/settings
 * The HTTP front's slice of the settings (docs/operating.md): where it listens and with which certificate, what it
 * takes from a request (body size, text length), whom it believes and lets in (proxies, tokens), and the limits
 * per client and per session it applies before a request reaches the sessions.
 */
import proxyAddr from 'proxy-addr'
import { z } from 'zod'
import { bool, int, optional, optionalFile, pickSettings, secret, type SliceOf } from '../settings/fields.js'

/** TRUST_PROXY as express takes it: a boolean, a hop count, or the list as written. */
function trustProxyValue(v: string): boolean | number | string {
  const t = v.trim()
  if (t === 'true' || t === 'false') return t === 'true'
  return /^\d+$/.test(t) ? Number(t) : t
}

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

/** A bearer token: long, and one word (`Bearer <token>` can never carry whitespace, so such a token never matches). */
const bearerToken = () =>
  secret(
    optional(
      z
        .string()
        .min(16, 'must be at least 16 characters (use a long random value)')
        .refine(v => !/\s/.test(v), 'must not contain whitespace (a bearer token is one word)'),
    ),
  )

export const HTTP_SETTINGS = {
  PORT: int(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Serve HTTPS on PORT with this certificate chain and key (PEM files); needed for `https://` ADVERTISE_URLs. */
  TLS_CERT_FILE: optionalFile(),
  TLS_KEY_FILE: optionalFile(),
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
  /** JSON body limit for POST requests. */
  BODY_LIMIT_BYTES: int(1024 * 1024, 1),
  /** Limits (docs/operating.md: Limits). Longest `text` of POST /message and POST /status (the platform's own cap). */
  TEXT_MAX_CHARS: int(65_536, 1),
  /** When set, POST /session needs `authorization: Bearer <token>` (401 otherwise); unset = open, as the spec has it. */
  CREATE_SESSION_TOKEN: bearerToken(),
  /** When set, GET /metrics needs `authorization: Bearer <token>` (401 otherwise); unset = open to anyone. */
  METRICS_TOKEN: bearerToken(),
  /** Serve the OpenAPI document (/openapi.json) and its reference page (/docs); false = 404 for both. */
  API_DOCS: bool(true),
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
  /**
   * Answers bounded by what their clients read (src/http/answers, src/http/connections; README: Limits). A socket
   * whose answer bytes have waited this long without ever draining is cut. The bytes of answers waiting for their
   * clients, all answers together, past which the reads whose answer size the platform's data decides answer 503.
   */
  ANSWER_WRITE_TIMEOUT_MS: int(30_000, 1),
  ANSWER_BYTES_PER_PROCESS: int(64 * 1024 * 1024, 1),
  /**
   * Open connections from one client address (IPv6: its /64) and in all, counted as TCP sees them (a proxy that
   * TRUST_PROXY believes counts only in the total); past either, 503 on the raw socket; 0 = no cap.
   */
  CONNECTIONS_PER_CLIENT: int(1_024, 0),
  CONNECTIONS_PER_PROCESS: int(16_384, 0),
  /** Sends (POST /message, /status, /typing) per session: sustained rate and burst, then 429; rate 0 = no limit. */
  SEND_RATE_PER_SECOND: z.coerce.number().min(0).default(10),
  SEND_BURST: int(50, 1),
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
  /**
   * Pairing codes per phone number and hour, whichever sessions and clients ask (every node together in cluster
   * mode): each one is a notification on that phone, which need not be the client's own; 0 = no limit.
   */
  PAIRING_CODES_PER_PHONE_PER_HOUR: int(3, 0),
  /** Pairing codes per client address (an IPv6 /64) and hour, whatever the numbers; 0 = no limit. */
  PAIRING_CODES_PER_CLIENT_PER_HOUR: int(20, 0),
}

export type HttpSettings = SliceOf<typeof HTTP_SETTINGS>

export const httpSettings = (values: HttpSettings): HttpSettings => pickSettings(values, HTTP_SETTINGS)

/** What the slice's fields cannot say alone: undefined when the values fit together, else the one line to print. */
export function checkHttpSettings(s: HttpSettings): string | undefined {
  if ((s.TLS_CERT_FILE === undefined) !== (s.TLS_KEY_FILE === undefined))
    return 'invalid setting TLS_KEY_FILE: TLS_CERT_FILE and TLS_KEY_FILE go together, set both or neither'
  return undefined
}
