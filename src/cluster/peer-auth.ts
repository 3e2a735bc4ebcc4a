/**
 * @module cluster/peer-auth
 * How nodes prove they are nodes, with nothing but CLUSTER_SECRET, which comes from each node's configuration and
 * never from Redis (whoever reads or writes Redis must not become a node):
 *   - a request one node forwards to another carries `x-gateway-peer: v1 <from> <to> <ms> <nonce> <mac>`, an
 *     HMAC-SHA256 over those fields and what the request is (method, target, the client it is for, the session's
 *     `id` and a hash of its `session-id`, its body's length and type, the origin the client reached). The
 *     receiver checks that it is the `to`, that the time is within PEER_SKEW_MS of its own clock, that it has not
 *     seen the nonce (a replay cache as long as the window), and the MAC. A signature taken off the wire is good for that one request, once, for seconds;
 *   - a node's heartbeat record in Redis carries a MAC of its fields and of when it expires: a record written by
 *     anyone else, or replayed after its time, is ignored, so nobody can make the nodes forward a session's requests
 *     to an address of theirs by writing Redis.
 * The two uses have keys of their own, derived from the secret (HKDF-SHA256, one label each), and so do two more:
 * the names of clients in Redis for the per-client limits (a keyed hash of the address, cluster/limits.ts), and the
 * names of phone numbers for the pairing codes' limit per number (a number has too few digits for a plain hash to
 * hide it).
 */
import { createHmac, hash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'

export const PEER_HEADER = 'x-gateway-peer'
export const PEER_CLIENT_HEADER = 'x-gateway-client'
/**
 * The origin the client reached the forwarding node at (`https://host:port`, from its own Host, validated), or '':
 * what the owner builds a view link from when PUBLIC_URL is unset (never its own internal address).
 */
export const PEER_ORIGIN_HEADER = 'x-gateway-origin'

/** How far a peer request's time may be from the receiver's clock (nodes run NTP; docs/cluster.md). */
export const PEER_SKEW_MS = 15_000

/** What a peer request's MAC covers besides the header's own fields. */
export interface PeerRequest {
  method: string
  /** The request target as sent: path and query. */
  target: string
  /** The client the forwarding node saw (its per-client key). */
  client: string
  /** The `id` header, or ''. */
  id: string
  /** The `session-id` header, else GET /session/qr's `view-token`, or '' (only its hash enters the MAC). */
  sessionId: string
  contentLength: string
  contentType: string
  /** The `x-gateway-origin` header, or ''. */
  origin: string
}

type Headers = Record<string, string | string[] | undefined>

const one = (value: string | string[] | undefined): string => (typeof value === 'string' ? value : '')

/** The parts of a request's headers that its MAC covers. */
export function peerRequestOf(method: string, target: string, headers: Headers, client: string): PeerRequest {
  return {
    method,
    target,
    client,
    id: one(headers.id),
    sessionId: one(headers['session-id']) || one(headers['view-token']),
    contentLength: one(headers['content-length']),
    contentType: one(headers['content-type']),
    origin: one(headers[PEER_ORIGIN_HEADER]),
  }
}

const NODE_NAME = /^[A-Za-z0-9._:-]{1,100}$/
const NONCE = /^[A-Za-z0-9_-]{22}$/
const MAC = /^[A-Za-z0-9_-]{43}$/

/** Nonces seen in the last two windows: enough to refuse every replay whose time is still accepted. */
class NonceCache {
  #current = new Set<string>()
  #previous = new Set<string>()
  #rotatedAt: number

  constructor(now: number) {
    this.#rotatedAt = now
  }

  /** Records `nonce`; false when it was seen already. */
  add(nonce: string, now: number): boolean {
    if (now - this.#rotatedAt >= 2 * PEER_SKEW_MS) {
      this.#previous = this.#current
      this.#current = new Set()
      this.#rotatedAt = now
    }
    if (this.#current.has(nonce) || this.#previous.has(nonce)) return false
    this.#current.add(nonce)
    return true
  }
}

export class PeerAuth {
  readonly #requestKey: Buffer
  readonly #recordKey: Buffer
  readonly #tagKey: Buffer
  readonly #phoneKey: Buffer
  readonly #self: string
  readonly #now: () => number
  readonly #nonces: NonceCache

  constructor(secret: string, self: string, now: () => number = Date.now) {
    const derive = (label: string) => Buffer.from(hkdfSync('sha256', secret, 'messaging-gateway cluster', label, 32))
    this.#requestKey = derive('peer request v1')
    this.#recordKey = derive('node record v1')
    this.#tagKey = derive('client tag v1')
    this.#phoneKey = derive('phone tag v1')
    this.#self = self
    this.#now = now
    this.#nonces = new NonceCache(now())
  }

  #requestMac(from: string, to: string, at: string, nonce: string, r: PeerRequest): Buffer {
    const secretHash = r.sessionId === '' ? '' : hash('sha256', r.sessionId, 'base64url')
    const fields = [
      'v1',
      from,
      to,
      at,
      nonce,
      r.method,
      r.target,
      r.client,
      r.id,
      secretHash,
      r.contentLength,
      r.contentType,
      r.origin,
    ]
    return createHmac('sha256', this.#requestKey).update(fields.join('\n')).digest()
  }

  /** The `x-gateway-peer` value for a request this node forwards to node `to`. */
  sign(to: string, request: PeerRequest): string {
    const at = String(this.#now())
    const nonce = randomBytes(16).toString('base64url')
    const mac = this.#requestMac(this.#self, to, at, nonce, request).toString('base64url')
    return `v1 ${this.#self} ${to} ${at} ${nonce} ${mac}`
  }

  /** The fields of `presented` when it is a well-formed signature of exactly this request for this node. */
  #genuine(
    presented: string | undefined,
    request: PeerRequest,
  ): { from: string; at: number; nonce: string } | undefined {
    if (presented === undefined || presented.length > 400) return undefined
    const [version, from, to, at, nonce, mac, ...rest] = presented.split(' ')
    if (version !== 'v1' || rest.length > 0 || to !== this.#self) return undefined
    if (!from || !NODE_NAME.test(from) || !at || !/^\d{1,16}$/.test(at)) return undefined
    if (!nonce || !NONCE.test(nonce) || !mac || !MAC.test(mac)) return undefined
    const expected = this.#requestMac(from, to, at, nonce, request)
    return timingSafeEqual(Buffer.from(mac, 'base64url'), expected) ? { from, at: Number(at), nonce } : undefined
  }

  /**
   * The node that sent this request, when `presented` is a fresh, unused signature of exactly this request made
   * for this node; undefined otherwise (the request is then a client's like any other, unless `spent`).
   */
  verify(presented: string | undefined, request: PeerRequest): string | undefined {
    const now = this.#now()
    // the time first: a stale or forged header costs no MAC
    const at = Number(presented?.split(' ')[3])
    if (!(Math.abs(now - at) <= PEER_SKEW_MS)) return undefined
    const genuine = this.#genuine(presented, request)
    // only a request that proved itself spends a nonce: a forger cannot fill the cache
    return genuine && this.#nonces.add(genuine.nonce, now) ? genuine.from : undefined
  }

  /**
   * Whether `presented`, which `verify` refused, is still a node's genuine signature of exactly this request for
   * this node: one past its time (its node forwarded it to this one while this one was frozen, and has answered
   * its client since, who may have sent it again) or seen before. Run as a client's request, it would run twice.
   */
  spent(presented: string | undefined, request: PeerRequest): boolean {
    return this.#genuine(presented, request) !== undefined
  }

  /** A client's name in Redis for the per-client limits: a keyed hash of its key, so Redis holds no address. */
  clientTag(clientKey: string): string {
    return createHmac('sha256', this.#tagKey).update(clientKey).digest('base64url').slice(0, 22)
  }

  /** A phone number's name in Redis for the pairing codes' limit per number: a keyed hash, never the number. */
  phoneTag(phone: string): string {
    return createHmac('sha256', this.#phoneKey).update(phone).digest('base64url').slice(0, 22)
  }

  /** The MAC of a node record's fields (cluster/node-directory.ts). */
  recordMac(fields: string): string {
    return createHmac('sha256', this.#recordKey).update(fields).digest('base64url')
  }

  /** Whether `mac` is the MAC of `fields` (constant time). */
  recordMacValid(fields: string, mac: unknown): boolean {
    if (typeof mac !== 'string' || !MAC.test(mac)) return false
    return timingSafeEqual(Buffer.from(mac, 'base64url'), Buffer.from(this.recordMac(fields), 'base64url'))
  }
}
