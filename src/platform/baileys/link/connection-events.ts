/**
 * @module platform/baileys/link/connection-events
 * Baileys' `creds.update` and `connection.update` → LinkEvents (BAILEYS-MAPPING §1, §4): QR, pairing, open, name
 * changes, and the close reason. The link's connection state is a plain object the socket layer shares with these
 * handlers; what to do about persistence, contacts and teardown stays with the socket layer (the hooks).
 */
import type { AuthenticationCreds, WASocket } from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import { closeReasonOf, disconnectFacts } from '../close-reason.js'
import type { CloseReason, LinkEvents } from '../../link.js'
import { isCodePlaceholder, qrWithAdvSecret } from './pairing-code.js'

export interface ConnectionState {
  /** Logged in and usable (between `open` and `close`). */
  open: boolean
  /** The account has been paired (creds.me set or pair-success seen). */
  paired: boolean
  /** close() or logout() was called. */
  closedByUs: boolean
  /** The account's display name as last reported ('' while unknown). */
  name: string
}

export interface ConnectionHooks {
  events: LinkEvents
  log: Logger
  /** PLATFORM_ONLINE_ON_CONNECT: the presence announced on connect is `available` (else `unavailable`). */
  onlineOnConnect: boolean
  /** Baileys changed the credentials (in place). */
  credsChanged(): void
  /** The connection opened. */
  opened(): void
  /** The socket closed; `reason` already accounts for `closedByUs`. */
  closed(reason: CloseReason, detail: string): void
}

export function wireConnectionEvents(
  sock: WASocket,
  creds: AuthenticationCreds,
  state: ConnectionState,
  hooks: ConnectionHooks,
): void {
  const { events } = hooks
  /** The QR last shown as Baileys made it, and the ADV secret it was shown with (pairing-code.ts, qrWithAdvSecret). */
  let lastQr: { qr: string; advSecret: string } | undefined
  const showQr = (qr: string) => {
    lastQr = { qr, advSecret: creds.advSecretKey }
    events.qr(qrWithAdvSecret(qr, creds.advSecretKey))
  }
  sock.ev.on('creds.update', update => {
    hooks.credsChanged()
    // the number a pairing code was asked for is no pairing (pairing-code.ts)
    if (update.me?.id && !isCodePlaceholder(creds)) state.paired = true
    // the phone answered a pairing code and Baileys derived a new ADV secret: the QR shown must carry it
    if (!state.paired && lastQr && creds.advSecretKey !== lastQr.advSecret) showQr(lastQr.qr)
    const name = update.me?.name ?? creds.me?.name
    if (name && name !== state.name) {
      const hadName = !!state.name
      state.name = name
      if (state.open) {
        events.name(name)
        // Baileys skips the presence it announces on connect while the name is empty (§4): send it now that we have one
        if (!hadName)
          sock
            .sendPresenceUpdate(hooks.onlineOnConnect ? 'available' : 'unavailable')
            .catch(err => hooks.log.debug({ err }, 'presence update failed'))
      }
    }
  })
  sock.ev.on('connection.update', update => {
    if (update.qr) showQr(update.qr)
    if (update.isNewLogin) {
      state.paired = true
      const me = creds.me
      if (me?.id)
        events.paired({ id: me.id, ...(me.lid ? { lid: me.lid } : {}), ...(me.name ? { name: me.name } : {}) })
    }
    if (update.connection === 'open') {
      state.open = true
      const me = creds.me
      state.name = me?.name ?? state.name
      events.open({ id: me?.id ?? '', ...(me?.lid ? { lid: me.lid } : {}), name: me?.name ?? '' })
      hooks.opened()
    }
    if (update.connection === 'close') {
      state.open = false
      const facts = disconnectFacts(update.lastDisconnect?.error)
      const reason = closeReasonOf({ ...facts, paired: state.paired, closedByUs: state.closedByUs })
      hooks.closed(reason, `${facts.statusCode ?? ''} ${facts.message ?? ''}`.trim())
    }
  })
}
