/**
 * @module actors/main/view-tokens
 * View-only tokens for the QR page (POST /session/view-link, GET /session/qr). A session's secret gives the whole
 * API; the person holding the phone only needs to see the QR. A view token shows one session's QR and nothing else:
 *
 * - 192 random bits, handed out once; only its SHA-256 is kept (in the main thread's memory, never on disk), so a
 *   heap or log of this map gives no usable token. A fast hash is enough for a random value this long;
 * - good until the session's QR window closes (its QR deadline), and never beyond it;
 * - it shows a pending pairing code too (POST /session/pairing-code), which its holder types on the phone instead of
 *   scanning; not the number the code was asked for, nor anything else of the account;
 * - dead for good once the session pairs: a snapshot showing it paired (connected, or a device id) turns its
 *   tokens into tombstones that answer 410 until they would have expired, so the page can say "linked";
 * - revoked with the session: on reset (a new QR window needs a new link), on delete, on expiry unscanned;
 * - at most MAX_TOKENS_PER_SESSION live per session (the oldest goes), so memory stays bounded by the sessions.
 * A restart of the process ends every link (the operator asks for a new one). In cluster mode a token also names
 * its session, with a MAC only the nodes can make (`ViewTokenRoutes`, cluster/view-token-routes.ts): any node can
 * then tell a real token's session and forward GET /session/qr to the node that holds the token.
 *
 * @example
 * const tokens = new ViewTokens(id => cache.snapshotOf(id))
 * const { token, expiresAt } = tokens.issue(id)
 * tokens.view(token).qrcode // the session's current QR
 */
import { createHash, randomBytes } from 'node:crypto'
import type { PairingCode } from '../../protocol/commands.js'
import { GatewayError } from '../../protocol/errors.js'
import type { SessionSnapshot } from '../../protocol/snapshot.js'

export const MAX_TOKENS_PER_SESSION = 5
const TOKEN_BYTES = 24

/** Cluster mode: makes a token carry its session's id, signed (cluster/view-token-routes.ts). */
export interface ViewTokenMinter {
  mint(id: string, random: string): string
}

export interface ViewToken {
  token: string
  /** Epoch ms. */
  expiresAt: number
}

export interface QrView {
  /** The session's id, for the main thread only (what a waiting GET /session/qr watches); never shown to the page. */
  id: string
  /** Base64 PNG; '' before the first QR. */
  qrcode: string
  /** Epoch ms. */
  expiresAt: number
  /** The pairing code pending for the session, until it expires; null when there is none. */
  pairingCode: PairingCode | null
}

interface Entry {
  id: string
  expiresAt: number
  /** The session paired after this token was issued: 410 until expiry, never a QR again. */
  linked: boolean
}

const digest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex')

/** Paired, or pairing has gone past the QR: connected, holds a device id, or has no QR deadline. */
const isPaired = (s: SessionSnapshot): boolean => s.isConnected || s.generatedId !== '' || s.qrDeadline === null

export class ViewTokens {
  readonly #byHash = new Map<string, Entry>()
  /** Token hashes per session, oldest first. */
  readonly #bySession = new Map<string, string[]>()
  readonly #snapshotOf: (id: string) => SessionSnapshot | undefined
  readonly #now: () => number
  readonly #minter: ViewTokenMinter | undefined

  constructor(
    snapshotOf: (id: string) => SessionSnapshot | undefined,
    now: () => number = Date.now,
    minter?: ViewTokenMinter,
  ) {
    this.#snapshotOf = snapshotOf
    this.#now = now
    this.#minter = minter
  }

  /** Live tokens and tombstones held (for tests and metrics). */
  get size(): number {
    return this.#byHash.size
  }

  /** A new token for session `id`: 404 when it is unknown, 409 when it is already paired (no QR to show). */
  issue(id: string): ViewToken {
    const snapshot = this.#snapshotOf(id)
    if (snapshot === undefined || snapshot.state === 'deleted') throw new GatewayError('SESSION_NOT_FOUND')
    if (isPaired(snapshot) || snapshot.qrDeadline === null) throw new GatewayError('SESSION_ALREADY_PAIRED')
    this.#sweep(id)
    const random = randomBytes(TOKEN_BYTES).toString('base64url')
    const token = this.#minter ? this.#minter.mint(id, random) : random
    const hash = digest(token)
    const expiresAt = snapshot.qrDeadline
    this.#byHash.set(hash, { id, expiresAt, linked: false })
    const hashes = this.#bySession.get(id) ?? []
    hashes.push(hash)
    while (hashes.length > MAX_TOKENS_PER_SESSION) this.#byHash.delete(hashes.shift()!)
    this.#bySession.set(id, hashes)
    return { token, expiresAt }
  }

  /**
   * The QR a token shows: 404 `view link not found or expired` for an unknown, expired or revoked token (or one
   * whose session is gone), 410 once the session paired.
   */
  view(token: string): QrView {
    const hash = digest(token)
    const entry = this.#byHash.get(hash)
    if (entry === undefined) throw new GatewayError('VIEW_LINK_NOT_FOUND')
    if (this.#now() >= entry.expiresAt) {
      this.#sweep(entry.id)
      throw new GatewayError('VIEW_LINK_NOT_FOUND')
    }
    if (entry.linked) throw new GatewayError('VIEW_LINK_USED')
    const snapshot = this.#snapshotOf(entry.id)
    if (snapshot === undefined || snapshot.state === 'deleted') {
      this.revoke(entry.id)
      throw new GatewayError('VIEW_LINK_NOT_FOUND')
    }
    if (isPaired(snapshot)) {
      this.#markLinked(entry.id)
      throw new GatewayError('VIEW_LINK_USED')
    }
    const code = snapshot.pairingCode
    const pairingCode = code !== null && this.#now() < code.expiresAt ? code : null
    return { id: entry.id, qrcode: snapshot.qrcode, expiresAt: entry.expiresAt, pairingCode }
  }

  /** Every snapshot the system sees: a session that paired ends its tokens, even if it later needs a QR again. */
  observe(snapshot: SessionSnapshot): void {
    if (!this.#bySession.has(snapshot.id) || !isPaired(snapshot)) return
    this.#sweep(snapshot.id)
    this.#markLinked(snapshot.id)
  }

  /** Ends every token of a session (reset, delete, expiry). */
  revoke(id: string): void {
    for (const hash of this.#bySession.get(id) ?? []) this.#byHash.delete(hash)
    this.#bySession.delete(id)
  }

  #markLinked(id: string): void {
    for (const hash of this.#bySession.get(id) ?? []) {
      const entry = this.#byHash.get(hash)
      if (entry) entry.linked = true
    }
  }

  /** Drops the expired tokens and tombstones of one session. */
  #sweep(id: string): void {
    const hashes = this.#bySession.get(id)
    if (hashes === undefined) return
    const now = this.#now()
    const live = hashes.filter(hash => {
      const entry = this.#byHash.get(hash)
      if (entry !== undefined && now < entry.expiresAt) return true
      this.#byHash.delete(hash)
      return false
    })
    if (live.length === 0) this.#bySession.delete(id)
    else this.#bySession.set(id, live)
  }
}
