/**
 * @module platform/baileys/link/pairing-code
 * Pairing by code (POST /session/pairing-code): the client's companion_hello, sent so that the code is handed out
 * only once the platform has registered it.
 *
 * Why not Baileys' `requestPairingCode`: in 7.0.0-rc14 it sends the companion_hello with `sendNode`, never reads the
 * answer, and returns the code at once (Baileys #2737): a code the platform refused (400 `bad-request`, 429
 * `rate-overlimit`) or never got is handed out all the same, and the phone's user types a code that links nothing.
 * Here the same stanza (same children, same crypto, as Baileys, whatsmeow and WA Web build it) goes out as a query
 * with the gateway's time-out, and its answer decides: the platform's `link_code_pairing_ref` → the code, its
 * `<error code>` → PAIRING_CODE_REFUSED. No Baileys source is changed: the phone's answer is still Baileys' own
 * handler's (Socket/messages-recv.js, `link_code_companion_reg`), which reads the code and the number where
 * requestPairingCode leaves them, `creds.pairingCode` and `creds.me`, set here once the platform accepted.
 *
 * That `creds.me` is the number the code is for, not a pairing: `isCodePlaceholder` tells it apart (a linked device's
 * id has a device part, and pair-success brings `account`), so it is never taken for a paired session nor stored.
 *
 * How long a code works: the platform routes the phone's answer to the connection that asked, and Baileys ends that
 * connection when its QR refs run out (60 s for the first, 20 s for each other: socket.js, `pair-device`); WA Web
 * refuses a phone's answer to a code older than 180 s. The QR keeps rotating meanwhile: a scan still links, and the
 * first of the two to finish wins.
 */
import { randomBytes } from 'node:crypto'
import {
  aesEncryptCTR,
  type AuthenticationCreds,
  type BinaryNode,
  bytesToCrockford,
  derivePairingCodeKey,
  getBinaryNodeChild,
  getCompanionPlatformId,
  jidDecode,
  jidEncode,
  S_WHATSAPP_NET,
  type WASocket,
} from '@whiskeysockets/baileys'
import type { PairingCode } from '../../../protocol/commands.js'
import { GatewayError } from '../../../protocol/errors.js'
import { isConnectionClosed, isQueryTimeout } from '../boom.js'
import { iqErrorCode, queryOrTimeout } from '../query.js'
import { browserOf } from './socket-config.js'

/** WA Web refuses the phone's answer to a code older than this (WAWebAltDeviceLinkingApi). */
export const PAIRING_CODE_LIFETIME_MS = 180_000
/** Baileys' QR timers without `qrTimeout` (socket.js, `pair-device`): the first ref, then each other one. */
const FIRST_REF_MS = 60_000
const NEXT_REF_MS = 20_000
const QR_PREFIX = 'https://wa.me/settings/linked_devices#'

/** When Baileys ends a registering connection whose `pair-device` brought `refs` refs at `receivedAt`. */
export const registrationEndsAt = (receivedAt: number, refs: number): number =>
  receivedAt + FIRST_REF_MS + Math.max(0, refs - 1) * NEXT_REF_MS

/** `creds.me` names only the number a code was asked for (no device, no signed device identity): not paired. */
export const isCodePlaceholder = (creds: Pick<AuthenticationCreds, 'me' | 'account'>): boolean =>
  creds.me?.id !== undefined && creds.account == null && jidDecode(creds.me.id)?.device === undefined

/** The credentials as they may be stored: a pending code, and the number it was asked for, die with the link. */
export function storableCreds(creds: AuthenticationCreds): AuthenticationCreds {
  if (creds.pairingCode === undefined && !isCodePlaceholder(creds)) return creds
  return { ...creds, pairingCode: undefined, ...(isCodePlaceholder(creds) ? { me: undefined } : {}) }
}

/**
 * The QR string with the ADV secret the credentials hold now. Baileys builds every QR of a connection with the secret
 * it had when the refs came, but its handler of a phone's answer to a code derives a new one: a wrong code typed on
 * the phone would otherwise leave a QR whose scan fails the HMAC check. WA Web re-renders the QR the same way.
 */
export function qrWithAdvSecret(qr: string, advSecretB64: string): string {
  if (!qr.startsWith(QR_PREFIX)) return qr
  const fields = qr.slice(QR_PREFIX.length).split(',')
  if (fields.length !== 5) return qr
  fields[3] = advSecretB64
  return QR_PREFIX + fields.join(',')
}

/** The 8 characters → `ABCD-EFGH`, as the platform's apps show a code. */
const shown = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`

/** salt ‖ iv ‖ AES-256-CTR(PBKDF2(code, salt), key): the companion's ephemeral key, wrapped under the code. */
async function wrapUnderCode(code: string, publicKey: Uint8Array): Promise<Buffer> {
  const salt = randomBytes(32)
  const iv = randomBytes(16)
  return Buffer.concat([salt, iv, aesEncryptCTR(publicKey, await derivePairingCodeKey(code, salt), iv)])
}

/** The companion_hello, child for child as Baileys' requestPairingCode sends it (the nonce as WA Web's one byte). */
export function companionHello(
  jid: string,
  wrappedKey: Buffer,
  noiseKey: Uint8Array,
  browser: [string, string, string],
): BinaryNode {
  const child = (tag: string, content: Uint8Array | string): BinaryNode => ({ tag, attrs: {}, content })
  return {
    tag: 'iq',
    attrs: { to: S_WHATSAPP_NET, type: 'set', xmlns: 'md' },
    content: [
      {
        tag: 'link_code_companion_reg',
        attrs: { jid, stage: 'companion_hello', should_show_push_notification: 'true' },
        content: [
          child('link_code_pairing_wrapped_companion_ephemeral_pub', wrappedKey),
          child('companion_server_auth_key_pub', noiseKey),
          child('companion_platform_id', getCompanionPlatformId(browser)),
          child('companion_platform_display', `${browser[1]} (${browser[0]})`),
          child('link_code_pairing_nonce', Buffer.alloc(1)),
        ],
      },
    ],
  }
}

/**
 * What asking for a code needs of the link: `LinkSocket` (socket.ts) has it. Said here rather than imported, since
 * socket.ts imports this file's credential helpers (an import cycle otherwise).
 */
interface RegisteringLink {
  readonly settings: { QUERY_TIMEOUT_MS: number; PLATFORM_DEVICE_NAME: string }
  readonly ended: AbortSignal
  registering(timeoutMs: number): Promise<{ sock: WASocket; endsAt: number }>
}

/** What a failed companion_hello means to the client. */
function helloFailure(err: unknown, link: RegisteringLink): unknown {
  if (err instanceof GatewayError) return err // PLATFORM_TIMEOUT: no answer in QUERY_TIMEOUT_MS
  const code = iqErrorCode(err)
  if (code !== undefined) return new GatewayError('PAIRING_CODE_REFUSED', { platformCode: code })
  if (link.ended.aborted || isConnectionClosed(err)) return new GatewayError('PAIRING_CODE_CONNECTION_LOST')
  if (isQueryTimeout(err)) return new GatewayError('PLATFORM_TIMEOUT')
  return err
}

export function makePairingCode(link: RegisteringLink) {
  return {
    async requestPairingCode(phone: string): Promise<PairingCode> {
      const { sock, endsAt } = await link.registering(link.settings.QUERY_TIMEOUT_MS)
      const creds = sock.authState.creds
      const code = bytesToCrockford(randomBytes(5))
      const jid = jidEncode(phone, 's.whatsapp.net')
      const hello = companionHello(
        jid,
        await wrapUnderCode(code, creds.pairingEphemeralKeyPair.public),
        creds.noiseKey.public,
        browserOf(link.settings),
      )
      let answer: BinaryNode
      try {
        answer = await queryOrTimeout(sock.query, hello, link.settings.QUERY_TIMEOUT_MS)
      } catch (err) {
        throw helloFailure(err, link)
      }
      // WA Web, too, gives up on an answer without the ref the phone's answer will carry
      if (!getBinaryNodeChild(getBinaryNodeChild(answer, 'link_code_companion_reg'), 'link_code_pairing_ref'))
        throw new GatewayError('INTERNAL', { cause: 'the platform accepted the companion_hello without a pairing ref' })
      if (link.ended.aborted) throw new GatewayError('PAIRING_CODE_CONNECTION_LOST')
      // Registered: Baileys' handler of the phone's answer reads both from the credentials (in memory only).
      creds.pairingCode = code
      creds.me = { id: jid, name: '~' }
      return { code: shown(code), expiresAt: Math.min(Date.now() + PAIRING_CODE_LIFETIME_MS, endsAt) }
    },
  }
}
