/**
 * @module protocol/messages
 * Every message the gateway answers a client with, in one place: the fixed message of each error code, the other
 * fixed messages, the messages with a variable part, and the rules a validation line is made of. Word for word
 * from SPEC.md where the spec gives them; clients and tests match them byte for byte. The README's "Errors" table
 * lists each of `CLIENT_MESSAGES` (test/unit/protocol/messages-readme.test.ts keeps the two in step).
 *
 * In a template, `<name>` stands for the variable part and `fill` puts it in; in a validation line, `<path>` is the
 * field path joined with a dot (`image.url`), put in front of the rule by src/http/schemas/format.ts.
 *
 * @example
 * new GatewayError('TOO_MANY_REQUESTS', fill(MESSAGE_TEMPLATE.SEND_RATE, { seconds: 2 }))
 * // 429 too many messages for this session, retry in 2 s
 */
import type { ErrorCode } from './errors.js'
import { MESSAGE_TYPES, STATUS_TYPES } from './spec-types.js'

/** The message of each error code that has a fixed one (`new GatewayError(code)` answers it). */
export const ERROR_MESSAGE = {
  INVALID_HEADER: 'invalid header',
  INVALID_DESTINATION: 'invalid phone, group or newsletter',
  INVALID_TYPING_DESTINATION: 'invalid phone or group',
  INVALID_JSON: 'body is not valid JSON',
  UNAUTHORIZED: 'missing or wrong bearer token',
  SESSION_NOT_FOUND: 'session not found',
  NOT_FOUND: 'not found',
  VIEW_LINK_NOT_FOUND: 'view link not found or expired',
  SESSION_ALREADY_PAIRED: 'session is already paired; there is no QR to show',
  VIEW_LINK_USED: 'the session is linked; this view link no longer works',
  BODY_TOO_LARGE: 'request body too large',
  UNSUPPORTED_MEDIA_TYPE: 'content-type must be application/json',
  TOO_MANY_REQUESTS: 'too many requests',
  SESSION_NOT_CONNECTED: 'session not connected',
  CHANNEL_NOT_FOUND: 'channel not found',
  GROUP_NOT_FOUND: 'group not found',
  CHANNEL_NOT_OWNED: 'channel not owned or administered by this account',
  CONTACTS_NOT_SYNCED: 'contacts not synced, reconnect the session or set status privacy to "only share with"',
  STATUS_ONLY_SHARE_EMPTY: 'status privacy "only share with" has no contacts',
  PLATFORM_TIMEOUT: 'the platform did not acknowledge in time',
  PLATFORM_CONNECTION_LOST:
    'the connection dropped before the platform acknowledged the message; it may have been delivered',
  WORKER_CRASHED: 'session worker restarted during the request, retry it',
  INTERNAL: 'internal server error',
  OVERLOADED: 'server busy, retry later',
  STORAGE_UNAVAILABLE: 'storage write failed (disk full or not writable); the session was not created',
  SESSION_MOVING: 'session is moving to another node, retry in 1 s',
  NODE_UNREACHABLE: 'the node running this session did not answer, retry in 1 s',
  NODE_BUSY: 'the node running this session is busy, retry in 1 s',
  SESSION_CONNECTING: 'the session is connecting to the platform, retry in 1 s',
} as const satisfies Partial<Record<ErrorCode, string>>

/** Fixed messages that are not their code's default: some come from no code at all (node's HTTP parser, the
 * router), the others are the more precise word of a code whose default is generic. */
export const OTHER_MESSAGE = {
  /** 400: the router could not percent-decode a path parameter. */
  PATH_NOT_DECODABLE: 'path is not valid URL encoding',
  /** 400: a JSON body that is an array or a scalar. */
  BODY_NOT_OBJECT: 'body must be a JSON object',
  /** 431, 408, 400: refused by node's HTTP parser or timeouts before express saw the request. */
  HEADERS_TOO_LARGE: 'request headers too large',
  REQUEST_TIMEOUT: 'request timeout',
  MALFORMED_REQUEST: 'malformed HTTP request',
  /** 400: a request target that is not a path (`http://host/…`, `host:port`, `*`), refused before the app. */
  TARGET_NOT_PATH: 'request target must be a path',
  /** 417: an `Expect` header other than `100-continue`, refused before the app. */
  EXPECTATION_FAILED: 'only "Expect: 100-continue" is supported',
  /** 429 TOO_MANY_REQUESTS from the shard's admission: the session's own cap or its fair share. */
  SESSION_BUSY: 'too many requests in flight for this session, retry in 1 s',
  /** 503 OVERLOADED once shutdown began. */
  SHUTTING_DOWN: 'server is shutting down',
  /** 500 PLATFORM_REJECTED when no media host took a channel upload. */
  MEDIA_UPLOAD_FAILED: 'the platform rejected the message (media upload failed)',
  /** 409 SESSION_ALREADY_PAIRED from POST /session/pairing-code. */
  PAIRED_NO_CODE: 'session is already paired; it needs no pairing code',
  /** 500 PLATFORM_CONNECTION_LOST from POST /session/pairing-code. */
  PAIRING_CODE_CONNECTION_LOST: 'the connection dropped before the platform answered; request a new code',
  /** 400 PROXY_REFUSED: SESSION_PROXY_ALLOWED_HOSTS does not list the proxy's host. */
  PROXY_HOST_NOT_ALLOWED: "proxy host is not on this gateway's list of allowed proxy hosts",
} as const

/** Messages with a variable part, `<name>`, put in by `fill`. */
export const MESSAGE_TEMPLATE = {
  /** 500: the spec's media-download failure; `detail` is the HTTP status or what else went wrong. */
  MEDIA_DOWNLOAD_FAILED: 'error parser file from url <detail>',
  /** 400: the SSRF guard refused a media or thumbnail URL (or one of its redirects) of request field `path`. */
  MEDIA_URL_FORBIDDEN: '<path> leads to a private or local address',
  /** 400 PROXY_REFUSED: the proxy's host name did not resolve, so it could not be judged. */
  PROXY_UNRESOLVED: 'proxy host could not be resolved: <detail>',
  /** 400: a media file over its type's cap. */
  MEDIA_TOO_LARGE: '<kind> is larger than the limit of <max> bytes',
  /** 400: an image whose header declares more than MEDIA_MAX_PIXELS pixels. */
  MEDIA_TOO_MANY_PIXELS: '<kind> is larger than the limit of <max> pixels (<width> x <height>)',
  /** 400: `text` over TEXT_MAX_CHARS. */
  TEXT_TOO_LONG: 'text must be shorter than or equal to <max> characters',
  /** 503: the process holds MAX_SESSIONS sessions. */
  SESSIONS_FULL: 'session limit reached (<max> sessions on this server), retry later',
  /** 429: the per-session rates of src/http/limits/session-rate.ts. */
  SEND_RATE: 'too many messages for this session, retry in <seconds> s',
  READ_RATE: 'too many requests for this session, retry in <seconds> s',
  RESET_RATE: 'too many resets for this session, retry in <seconds> s',
  DELETE_RATE: 'too many deletes for this session, retry in <seconds> s',
  /** 503: the server (or cluster) holds UNPAIRED_MAX_PERCENT of MAX_SESSIONS sessions awaiting a scan. */
  UNPAIRED_FULL: 'too many sessions awaiting a QR scan on this server (<max>), retry in <seconds> s',
  PAIRING_CODE_RATE: 'too many pairing code requests for this session, retry in <seconds> s',
  /** 429: GET /session?wait (and GET /session/qr?wait) over one of its bounds (src/http/session-wait). */
  WAITS_PER_SESSION: 'too many waiting requests for this session (<max>), retry in <seconds> s',
  WAITS_PER_CLIENT: 'too many waiting requests from this client (<max>), retry in <seconds> s',
  WAITS_PER_PROCESS: 'too many waiting requests on this server, retry in <seconds> s',
  /** 429: a client at UNPAIRED_PER_CLIENT unpaired sessions. */
  UNPAIRED_CAP: 'too many unpaired sessions for this client (<max>); scan or delete one, or retry in <seconds> s',
  /** 500: the platform's error ack. */
  PLATFORM_REJECTED: 'the platform rejected the message (error <code>)',
  /** 500: the platform refused a pairing code request (POST /session/pairing-code). */
  PAIRING_CODE_REFUSED: 'the platform refused the pairing code request (error <code>)',
  /** 500: an error ack to a location or contact post in a channel. */
  CHANNEL_POST_REJECTED:
    'the platform rejected the message (error <code>): channels accept only text, image, video, ' +
    'audio and document posts',
  /** 500: the platform no longer knows CHANNEL_LIST_QUERY_ID (the ` (error <code>)` part only when it gave one). */
  CHANNEL_LIST_REFUSED:
    'the platform refused the channel list query <id> (error <code>); the id may be outdated, ' +
    'set CHANNEL_LIST_QUERY_ID',
} as const

/** The rules of a 400 validation line, each after its field's path; several lines are joined by '\n'. */
export const RULE = {
  EMPTY: 'should not be empty',
  STRING: 'must be a string',
  NUMBER: 'must be a number',
  OBJECT: 'must be an object',
  ONE_OF: 'must be one of the following values: <values>',
  GREATER_THAN: 'must be greater than <minimum>',
  NOT_ZERO: 'must not be 0',
  BETWEEN: 'must be between -<limit> and <limit>',
  HTTP_URL: 'must be an http or https URL',
  PHONE: 'must be a valid phone number',
  GROUP_ID: 'must be a group ID ending in @g.us',
  CHANNEL_ID: 'must be a channel ID ending in @newsletter',
  BEFORE: 'must be a non-negative integer',
  PROXY_URL: 'must be a socks5, socks5h, http or https URL with a host and no path',
  /** GET /session?wait, GET /session/qr?wait. */
  WAIT: 'must be a whole number of seconds',
  /** A broken rule with no words of its own; no field of the current schemas has one. */
  INVALID: 'is invalid',
} as const

/** The `<name>`s of a template, as a type. */
type Placeholders<T extends string> = T extends `${string}<${infer Name}>${infer Rest}`
  ? Name | Placeholders<Rest>
  : never

/** Puts the values into a template's placeholders. */
export function fill<T extends string>(template: T, values: Record<Placeholders<T>, string | number>): string {
  const named = values as Record<string, string | number>
  return template.replace(/<(\w+)>/g, (whole, name: string) => (name in named ? String(named[name]) : whole))
}

/** A rule with its path; `<path>` where the rule applies to many fields. */
const line = (path: string, rule: string): string => `${path} ${rule}`

/** Every message as the README's Errors table lists it: validation lines with the paths and values they have. */
export const CLIENT_MESSAGES: readonly string[] = [
  ...Object.values(ERROR_MESSAGE),
  ...Object.values(OTHER_MESSAGE),
  ...Object.values(MESSAGE_TEMPLATE),
  ...[RULE.EMPTY, RULE.STRING, RULE.NUMBER, RULE.OBJECT, RULE.NOT_ZERO, RULE.HTTP_URL, RULE.INVALID].map(rule =>
    line('<path>', rule),
  ),
  line('<path>', fill(RULE.GREATER_THAN, { minimum: 0 })),
  ...[MESSAGE_TYPES, STATUS_TYPES, ['text', 'audio']].map(types =>
    line('type', fill(RULE.ONE_OF, { values: types.join(', ') })),
  ),
  line('location.latitude', fill(RULE.BETWEEN, { limit: 90 })),
  line('location.longitude', fill(RULE.BETWEEN, { limit: 180 })),
  line('contact.phone', RULE.PHONE),
  line('phone', RULE.PHONE),
  line('groupId', RULE.GROUP_ID),
  line('channelId', RULE.CHANNEL_ID),
  line('before', RULE.BEFORE),
  line('proxy', RULE.PROXY_URL),
  line('wait', RULE.WAIT),
]
