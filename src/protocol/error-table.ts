/**
 * @module protocol/error-table
 * Every error the gateway answers a client with, one entry per code: its HTTP status, its message (word for word
 * from SPEC.md where the spec gives it; clients and tests match it byte for byte), and what else it says. A
 * message's `<name>`s are the error's detail fields (protocol/template.ts): `new GatewayError(code, details)` must
 * give each one, typed, and two have a meaning beyond the words:
 *   - `<retryAfterSeconds>`: the wait the client is told, also sent as `Retry-After`;
 *   - `<platformCode>`: the error code the platform answered with (counted in /metrics by that field).
 * An entry's own `retryAfterSeconds` is the `Retry-After` of a code whose wait is fixed. `log: 'warn'` marks the
 * codes that say the gateway or the platform misbehaved; the others are the client's business (logged at debug).
 *
 * The HTTP mapper (src/http/errors.ts) and the metrics read these fields, never the text. The Errors table
 * of docs/api.md lists every message (test/unit/protocol/error-table/errors-doc.test.ts keeps the two in step).
 */

export interface ErrorEntry {
  readonly status: number
  readonly message: string
  readonly retryAfterSeconds?: number
  readonly log?: 'warn'
}

/** Back-pressure and moves: the client may retry in a second. */
const RETRY_SOON = { retryAfterSeconds: 1 } as const

export const ERRORS = {
  // 400: the request is wrong
  INVALID_HEADER: { status: 400, message: 'invalid header' },
  /** POST /session/view-link without PUBLIC_URL, from a request whose Host is not a host a link can name. */
  INVALID_HOST: { status: 400, message: 'the Host header names no address a link can point to (set PUBLIC_URL)' },
  /** Every failing validation rule, one a line (http/schemas/validation-lines.ts holds the rules). */
  VALIDATION: { status: 400, message: '<lines>' },
  INVALID_DESTINATION: { status: 400, message: 'invalid phone, group or newsletter' },
  INVALID_TYPING_DESTINATION: { status: 400, message: 'invalid phone or group' },
  INVALID_JSON: { status: 400, message: 'body is not valid JSON' },
  /** The router could not percent-decode a path parameter. */
  PATH_NOT_DECODABLE: { status: 400, message: 'path is not valid URL encoding' },
  /** Bytes node's HTTP parser refused before express saw them. */
  MALFORMED_REQUEST: { status: 400, message: 'malformed HTTP request' },
  /** A request target that is not a path (`http://host/…`, `host:port`, `*`), refused before the app. */
  TARGET_NOT_PATH: { status: 400, message: 'request target must be a path' },
  /** The SSRF guard refused a URL of request field `path` (a media URL, one of its redirects, or a proxy). */
  PRIVATE_ADDRESS: { status: 400, message: '<path> leads to a private or local address' },
  /** SESSION_PROXY_ALLOWED_HOSTS does not list the proxy's host. */
  PROXY_HOST_NOT_ALLOWED: { status: 400, message: "proxy host is not on this gateway's list of allowed proxy hosts" },
  /**
   * The proxy's host name does not resolve, or resolves to a private or local address: one answer for both, so that
   * POST /session, open to anyone, tells nobody what the gateway's DNS knows of a name (the why is in the log).
   */
  PROXY_NAME_REFUSED: { status: 400, message: 'proxy host name does not resolve to a public address' },
  /** A media file over its type's cap (docs/operating.md: Limits). */
  MEDIA_TOO_LARGE: { status: 400, message: '<kind> is larger than the limit of <max> bytes' },
  /** An image whose header declares more than MEDIA_MAX_PIXELS pixels. */
  MEDIA_TOO_MANY_PIXELS: {
    status: 400,
    message: '<kind> is larger than the limit of <max> pixels (<width> x <height>)',
  },

  // 401 to 431: who asks, for what, how much
  UNAUTHORIZED: { status: 401, message: 'missing or wrong bearer token' },
  /** The brake on new chats: the platform's reach-out timelock or new-chat cap, with no end known. */
  ACCOUNT_RESTRICTED_NO_END: {
    status: 403,
    message: 'account restricted: <restriction> with no end known; no new chats until it is lifted',
  },
  SESSION_NOT_FOUND: { status: 404, message: 'session not found' },
  NOT_FOUND: { status: 404, message: 'not found' },
  VIEW_LINK_NOT_FOUND: { status: 404, message: 'view link not found or expired' },
  REQUEST_TIMEOUT: { status: 408, message: 'request timeout' },
  /** POST /session/view-link for a paired session. */
  SESSION_ALREADY_PAIRED: { status: 409, message: 'session is already paired; there is no QR to show' },
  /** POST /session/pairing-code for a paired session (or one pairing right now). */
  PAIRING_CODE_NOT_NEEDED: { status: 409, message: 'session is already paired; it needs no pairing code' },
  VIEW_LINK_USED: { status: 410, message: 'the session is linked; this view link no longer works' },
  BODY_TOO_LARGE: { status: 413, message: 'request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'content-type must be application/json' },
  /** An `Expect` header other than `100-continue`, refused before the app. */
  EXPECTATION_FAILED: { status: 417, message: 'only "Expect: 100-continue" is supported' },
  /** POST /session over SESSION_CREATE_PER_MINUTE for the client. */
  TOO_MANY_REQUESTS: { status: 429, message: 'too many requests' },
  /** A client at UNPAIRED_PER_CLIENT unpaired sessions. */
  UNPAIRED_CAP: {
    status: 429,
    message:
      'too many unpaired sessions for this client (<max>); scan or delete one, or retry in <retryAfterSeconds> s',
  },
  // the per-session rates (src/http/limits/session-rate.ts)
  SEND_RATE: { status: 429, message: 'too many messages for this session, retry in <retryAfterSeconds> s' },
  READ_RATE: { status: 429, message: 'too many requests for this session, retry in <retryAfterSeconds> s' },
  RESET_RATE: { status: 429, message: 'too many resets for this session, retry in <retryAfterSeconds> s' },
  DELETE_RATE: { status: 429, message: 'too many deletes for this session, retry in <retryAfterSeconds> s' },
  PAIRING_CODE_RATE: {
    status: 429,
    message: 'too many pairing code requests for this session, retry in <retryAfterSeconds> s',
  },
  /** POST /session/pairing-code past PAIRING_CODES_PER_PHONE_PER_HOUR for the number, whoever asked. */
  PAIRING_CODE_PHONE_RATE: {
    status: 429,
    message: 'too many pairing codes for this phone number, retry in <retryAfterSeconds> s',
  },
  /** POST /session/pairing-code past PAIRING_CODES_PER_CLIENT_PER_HOUR for the client, whatever the numbers. */
  PAIRING_CODE_CLIENT_RATE: {
    status: 429,
    message: 'too many pairing code requests from this client, retry in <retryAfterSeconds> s',
  },
  // GET /session?wait and GET /session/qr?wait over one of their bounds (src/http/session-wait/wait-room.ts)
  WAITS_PER_SESSION: {
    status: 429,
    message: 'too many waiting requests for this session (<max>), retry in <retryAfterSeconds> s',
  },
  WAITS_PER_CLIENT: {
    status: 429,
    message: 'too many waiting requests from this client (<max>), retry in <retryAfterSeconds> s',
  },
  WAITS_PER_PROCESS: {
    status: 429,
    message: 'too many waiting requests on this server, retry in <retryAfterSeconds> s',
  },
  /** The shard's admission: the session's own cap of commands in flight, or its fair share of a busy shard. */
  SESSION_BUSY: { status: 429, message: 'too many requests in flight for this session, retry in 1 s', ...RETRY_SOON },
  // the brake on new chats (actors/session/new-chat-brake.ts): a 1:1 send to a number the account has no chat with
  /** The platform's reach-out timelock or new-chat cap, with a known end. */
  ACCOUNT_RESTRICTED: {
    status: 429,
    message: 'account restricted: <restriction> until <until>; no new chats until then, retry in <retryAfterSeconds> s',
  },
  /** NEW_CHATS_PER_DAY, the operator's own limit, reached for the day. */
  NEW_CHATS_PER_DAY: {
    status: 429,
    message:
      'account restricted: new chats per day for this session (<max>) used up until <until>, retry in <retryAfterSeconds> s',
  },
  /** Refused by node's HTTP parser: headers over its 16 KB. */
  HEADERS_TOO_LARGE: { status: 431, message: 'request headers too large' },

  // 500: the operation failed
  SESSION_NOT_CONNECTED: { status: 500, message: 'session not connected' },
  /** The spec's media-download failure; `detail` is the HTTP status or what else went wrong. */
  MEDIA_DOWNLOAD_FAILED: { status: 500, message: 'error parser file from url <detail>' },
  GROUP_NOT_FOUND: { status: 500, message: 'group not found' },
  CHANNEL_NOT_FOUND: { status: 500, message: 'channel not found' },
  CHANNEL_NOT_OWNED: { status: 500, message: 'channel not owned or administered by this account' },
  CONTACTS_NOT_SYNCED: {
    status: 500,
    message: 'contacts not synced, reconnect the session or set status privacy to "only share with"',
  },
  STATUS_ONLY_SHARE_EMPTY: { status: 500, message: 'status privacy "only share with" has no contacts' },
  /** The platform's error ack to a message or status. */
  PLATFORM_REJECTED: {
    status: 500,
    message: 'the platform rejected the message (error <platformCode>)',
    log: 'warn',
  },
  /** An error ack to a location or contact post in a channel. */
  CHANNEL_POST_REJECTED: {
    status: 500,
    message:
      'the platform rejected the message (error <platformCode>): channels accept only text, image, video, audio and document posts',
    log: 'warn',
  },
  /** No media host took a channel upload. */
  MEDIA_UPLOAD_FAILED: { status: 500, message: 'the platform rejected the message (media upload failed)', log: 'warn' },
  /** No ack within ACK_TIMEOUT_MS, or no answer to a query within QUERY_TIMEOUT_MS. */
  PLATFORM_TIMEOUT: { status: 500, message: 'the platform did not acknowledge in time', log: 'warn' },
  /** The link ended while the ack of a sent message was awaited: it may be out. */
  PLATFORM_CONNECTION_LOST: {
    status: 500,
    message: 'the connection dropped before the platform acknowledged the message; it may have been delivered',
  },
  /** POST /session/pairing-code: the platform's error reply. */
  PAIRING_CODE_REFUSED: {
    status: 500,
    message: 'the platform refused the pairing code request (error <platformCode>)',
    log: 'warn',
  },
  /** POST /session/pairing-code: the link ended while the platform's reply was awaited. */
  PAIRING_CODE_CONNECTION_LOST: {
    status: 500,
    message: 'the connection dropped before the platform answered; request a new code',
  },
  /** The platform no longer knows CHANNEL_LIST_QUERY_ID, with its error code or without one. */
  CHANNEL_LIST_REFUSED: {
    status: 500,
    message:
      'the platform refused the channel list query <queryId> (error <platformCode>); the id may be outdated, set CHANNEL_LIST_QUERY_ID',
    log: 'warn',
  },
  CHANNEL_LIST_REFUSED_NO_CODE: {
    status: 500,
    message: 'the platform refused the channel list query <queryId>; the id may be outdated, set CHANNEL_LIST_QUERY_ID',
    log: 'warn',
  },
  /** The session's worker thread died mid-request. */
  WORKER_CRASHED: { status: 500, message: 'session worker restarted during the request, retry it', log: 'warn' },
  /** An unexpected failure; what went wrong goes to the log (the error's `cause`), never to the client. */
  INTERNAL: { status: 500, message: 'internal server error', log: 'warn' },

  // 503: not now
  /** A shard holding twice MAX_QUEUE_PER_SHARD. */
  OVERLOADED: { status: 503, message: 'server busy, retry later', log: 'warn', ...RETRY_SOON },
  /** A request that reaches the sessions after shutdown began. */
  SHUTTING_DOWN: { status: 503, message: 'server is shutting down', log: 'warn', ...RETRY_SOON },
  /** The process (cluster mode: the cluster) holds MAX_SESSIONS sessions. */
  SESSIONS_FULL: {
    status: 503,
    message: 'session limit reached (<max> sessions on this server), retry later',
    ...RETRY_SOON,
  },
  /** UNPAIRED_MAX_PERCENT of MAX_SESSIONS await a scan, whoever created them. */
  UNPAIRED_FULL: {
    status: 503,
    message: 'too many sessions awaiting a QR scan on this server (<max>), retry in <retryAfterSeconds> s',
  },
  STORAGE_UNAVAILABLE: {
    status: 503,
    message: 'storage write failed (disk full or not writable); the session was not created',
    log: 'warn',
    ...RETRY_SOON,
  },
  /** The bytes of answers waiting for slow clients reached ANSWER_BYTES_PER_PROCESS (src/http/answers). */
  ANSWERS_BACKLOGGED: {
    status: 503,
    message: 'too many answers waiting for their clients to read them, retry in 2 s',
    retryAfterSeconds: 2,
  },
  /** A connection past CONNECTIONS_PER_CLIENT or CONNECTIONS_PER_PROCESS, answered on the raw socket and closed. */
  CONNECTIONS_PER_CLIENT: {
    status: 503,
    message: 'too many connections from this client, retry in 1 s',
    ...RETRY_SOON,
  },
  CONNECTIONS_PER_PROCESS: {
    status: 503,
    message: 'too many connections to this server, retry in 1 s',
    log: 'warn',
    ...RETRY_SOON,
  },
  // cluster mode
  SESSION_MOVING: { status: 503, message: 'session is moving to another node, retry in 1 s', ...RETRY_SOON },
  NODE_UNREACHABLE: {
    status: 503,
    message: 'the node running this session did not answer, retry in 1 s',
    ...RETRY_SOON,
  },
  NODE_BUSY: { status: 503, message: 'the node running this session is busy, retry in 1 s', ...RETRY_SOON },
  /** POST /session/pairing-code while the session's link is not registered with the platform. */
  SESSION_CONNECTING: {
    status: 503,
    message: 'the session is connecting to the platform, retry in 1 s',
    ...RETRY_SOON,
  },
} as const satisfies Record<string, ErrorEntry>

export type ErrorCode = keyof typeof ERRORS

/** The message template of `code`. */
export type ErrorTemplate<C extends ErrorCode> = (typeof ERRORS)[C]['message']
