/**
 * @module actors/session/published-state
 * What the main thread sees of one session: the fields of its snapshot, and publishing them. The lifecycle
 * changes these fields as the link comes and goes; nothing reaches the main thread until `publish()`, so a
 * transition that touches several fields shows up as one snapshot.
 *
 * @example
 * published.state = 'connected'
 * published.isConnected = true
 * published.publish() // one snapshot with both changes
 */
import type { PairingCode } from '../../protocol/commands.js'
import type { AccountRestrictions } from '../../protocol/restrictions.js'
import type { NotConnected, SessionState } from '../../protocol/snapshot.js'
import type { SnapshotPublisher } from '../worker/publisher.js'

export interface PublishedStateDeps {
  id: string
  publisher: SnapshotPublisher
  /** The persisted QR deadline (null once paired): the record owns it, the snapshot only shows it. */
  qrDeadline: () => number | null
  /** A stopped actor (deleted, or shut down) publishes nothing more. */
  isStopped: () => boolean
}

export class PublishedState {
  state: SessionState = 'connecting'
  generatedId = ''
  name = ''
  isConnected = false
  picture = ''
  /** The pairing code of the current link, if one is pending: it dies with the link, and with pairing. */
  pairingCode: PairingCode | null = null
  /** The account's restrictions once the platform told them (restriction-state.ts); shown while connected. */
  restrictions: AccountRestrictions | null = null
  /** Why the session is not connected, while it is not (not-connected.ts). */
  notConnected: NotConnected | undefined
  #qrcode = ''
  /** Bumped whenever the shown QR stops applying, so a rendering that finishes late cannot bring it back. */
  #qrSeq = 0
  readonly #deps: PublishedStateDeps

  constructor(deps: PublishedStateDeps) {
    this.#deps = deps
  }

  /** Claims a ticket for a QR about to be rendered; see `isLatestQr`. */
  nextQr(): number {
    return ++this.#qrSeq
  }

  /** False once a newer QR, a scan, or a reset came after the ticket was taken. */
  isLatestQr(ticket: number): boolean {
    return ticket === this.#qrSeq
  }

  showQr(png: string): void {
    this.#qrcode = png
    this.state = 'awaiting-qr'
  }

  /** Hides the QR (and a pending pairing code) and invalidates any rendering still in progress. */
  dropQr(): void {
    this.#qrSeq++
    this.#qrcode = ''
    this.pairingCode = null
  }

  /** The link is gone: the session is neither connected nor showing a name, and its pairing code died with it. */
  linkDown(): void {
    this.isConnected = false
    this.name = ''
    this.pairingCode = null
  }

  publish(): void {
    const { id, publisher, qrDeadline, isStopped } = this.#deps
    if (isStopped()) return
    publisher.snapshot({
      id,
      state: this.state,
      generatedId: this.generatedId,
      name: this.isConnected ? this.name : '',
      isConnected: this.isConnected,
      qrcode: this.isConnected ? '' : this.#qrcode,
      picture: this.picture,
      qrDeadline: qrDeadline(),
      pairingCode: this.isConnected ? null : this.pairingCode,
      restrictions: this.isConnected ? this.restrictions : null,
      ...(this.notConnected && !this.isConnected ? { notConnected: this.notConnected } : {}),
    })
  }
}
