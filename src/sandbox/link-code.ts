/**
 * @module sandbox/link-code
 * Pairing by code ("Link with phone number"), the platform's side and the phone's, as the protocol runs it:
 *
 * 1. companion_hello (`<iq xmlns='md'><link_code_companion_reg stage='companion_hello' jid=PHONE>`): a registering
 *    client (one that got the QR refs) names the account's number and sends its ephemeral key wrapped under the code
 *    it shows, its Noise key, and its platform; the platform keeps that under a fresh ref and answers the ref. Only
 *    then does the client know the code is registered (Baileys' own requestPairingCode does not wait: #2737).
 * 2. `POST /link-code {phone, code}`: the phone's user types the code. The phone unwraps the companion's key with it,
 *    sends its own wrapped key and its identity (primary_hello), which the platform hands the client as a
 *    `<notification type='link_code_companion_reg'>`;
 * 3. the client answers companion_finish: a key bundle sealed with the ephemeral agreement. The phone opens it
 *    (a wrong code fails here, as on the platform: the phone says so and the client is told nothing), derives the ADV
 *    secret, and pairs the client with the same pair-success as a QR scan (pairing.ts).
 *
 * A registration lives as long as its connection and at most the code lifetime (180 s, WA Web's own limit; fault
 * `linkCodeTtlMs`). Fault switches: `holdLinkCodes` keeps companion_hellos unanswered, `linkCodeError` refuses them.
 */
import { randomBytes } from 'node:crypto'
import { Curve, type BinaryNode } from '@whiskeysockets/baileys'
import { newKeyPair } from './certs.js'
import type { CompanionConnection } from './connection.js'
import type { SandboxContext } from './context.js'
import {
  advSecretOf,
  normaliseLinkCode,
  openKeyBundle,
  unwrapKey,
  WRAPPED_KEY_BYTES,
  wrapKey,
} from './link-code-crypto.js'
import { bytes, child, iqError, iqResult, node, unixNow } from './nodes.js'
import type { PairingRegistry } from './pairing.js'

/** WA Web refuses a primary_hello for a code older than this (WAWebAltDeviceLinkingApi); the sandbox expires it. */
export const LINK_CODE_TTL_MS = 180_000
/** How long the phone waits for the client's companion_finish. */
const FINISH_WAIT_MS = 30_000
const PHONE_JID = /^(\d{6,15})@s\.whatsapp\.net$/
/** `Browser (OS)`: the platform refuses another companion_platform_display with 400 (whatsmeow, PairPhone). */
const PLATFORM_DISPLAY = /^\S.* \(\S.*\)$/
const ERROR_TEXT: Record<number, string> = { 400: 'bad-request', 403: 'forbidden', 429: 'rate-overlimit' }

/** A code the phone refuses; the control API answers 400 with its message. */
export class LinkCodeError extends Error {}

interface Finish {
  wrappedBundle: Buffer
  companionIdentity: Buffer
}

interface Registration {
  conn: CompanionConnection
  phone: string
  ref: Buffer
  wrappedCompanionKey: Buffer
  expiresAt: number
  /** Set while the phone waits for this client's companion_finish. */
  waiting?: { resolve(finish: Finish): void; reject(err: Error): void }
}

export class LinkCodeRegistry {
  readonly #byConn = new Map<CompanionConnection, Registration>()
  /** companion_hellos kept unanswered under `holdLinkCodes`, answered when it goes off. */
  #held: (() => void)[] = []

  constructor(
    private readonly ctx: SandboxContext,
    private readonly pairing: PairingRegistry,
  ) {
    ctx.faults.onChange(() => {
      if (ctx.faults.holdLinkCodes) return
      for (const release of this.#held.splice(0)) release()
    })
  }

  /** The connection ended: its code dies with it, and a phone waiting for its answer is told at once. */
  forget(conn: CompanionConnection): void {
    this.#byConn.get(conn)?.waiting?.reject(new LinkCodeError('the device went away'))
    this.#byConn.delete(conn)
  }

  /** `<iq xmlns='md'>` with a `link_code_companion_reg` child: the client's two stages. */
  async onIq(conn: CompanionConnection, iq: BinaryNode, reg: BinaryNode): Promise<BinaryNode> {
    if (reg.attrs.stage === 'companion_hello') return this.#companionHello(conn, iq, reg)
    if (reg.attrs.stage === 'companion_finish') return this.#companionFinish(conn, iq, reg)
    return iqError(iq, 400, 'bad-request')
  }

  async #companionHello(conn: CompanionConnection, iq: BinaryNode, reg: BinaryNode): Promise<BinaryNode> {
    const { ctx } = this
    ctx.stats.bump('linkCodeHellos') // GET /stats: companion_hellos received (answered or held)
    if (ctx.faults.holdLinkCodes) await new Promise<void>(resolve => this.#held.push(resolve))
    const refusal = ctx.faults.linkCodeError
    if (refusal !== undefined) return iqError(iq, refusal, ERROR_TEXT[refusal] ?? 'error')
    const phone = PHONE_JID.exec(reg.attrs.jid ?? '')?.[1]
    const wrappedCompanionKey = bytes(child(reg, 'link_code_pairing_wrapped_companion_ephemeral_pub'))
    const display = bytes(child(reg, 'companion_platform_display'))?.toString('utf8') ?? ''
    const noiseKey = bytes(child(reg, 'companion_server_auth_key_pub'))
    const malformed =
      !phone ||
      wrappedCompanionKey?.length !== WRAPPED_KEY_BYTES ||
      !PLATFORM_DISPLAY.test(display) ||
      !noiseKey ||
      !conn.clientStatic?.equals(noiseKey)
    // Only a client that is registering (it got QR refs) can be linked; the number must be on the platform.
    if (malformed || !this.pairing.registeringIdentity(conn)) return iqError(iq, 400, 'bad-request')
    if (!ctx.accounts.get(phone) && !ctx.autoRegister) return iqError(iq, 400, 'bad-request')
    const ref = Buffer.from(randomBytes(18).toString('base64'))
    // A new code replaces the client's previous one, as the client now answers only the new one.
    this.#byConn.set(conn, {
      conn,
      phone,
      ref,
      wrappedCompanionKey,
      expiresAt: Date.now() + ctx.faults.linkCodeTtlMs(LINK_CODE_TTL_MS),
    })
    ctx.logger.info({ phone, conn: conn.id }, 'pairing code registered')
    return iqResult(iq, [node('link_code_companion_reg', {}, [node('link_code_pairing_ref', {}, ref)])])
  }

  #companionFinish(conn: CompanionConnection, iq: BinaryNode, reg: BinaryNode): BinaryNode {
    const registration = this.#byConn.get(conn)
    const ref = bytes(child(reg, 'link_code_pairing_ref'))
    const wrappedBundle = bytes(child(reg, 'link_code_pairing_wrapped_key_bundle'))
    const companionIdentity = bytes(child(reg, 'companion_identity_public'))
    if (!registration?.waiting || !ref?.equals(registration.ref) || !wrappedBundle || !companionIdentity)
      return iqError(iq, 400, 'bad-request')
    registration.waiting.resolve({ wrappedBundle, companionIdentity })
    return iqResult(iq)
  }

  /** The phone of account `phone` enters `typed`. Resolves once the client counter-signed the pairing. */
  async enterCode(phone: string, typed: string): Promise<{ phone: string; device: number }> {
    const code = normaliseLinkCode(typed)
    if (!code) throw new LinkCodeError('malformed code: 8 characters such as ABCD-EFGH')
    const registration = [...this.#byConn.values()].reverse().find(r => r.phone === phone && !r.conn.closed)
    if (!registration) throw new LinkCodeError('no device is waiting for a code for this number')
    if (Date.now() > registration.expiresAt) {
      this.#byConn.delete(registration.conn)
      throw new LinkCodeError('expired code: ask the device for a new one')
    }
    if (registration.waiting) throw new LinkCodeError('a code is already being entered for this device')
    const { conn } = registration
    const finished = this.#awaitFinish(registration) // from now on a second entry of a code is refused
    finished.catch(() => undefined) // awaited below; a connection ending during the key work must not go unhandled
    const identity = this.ctx.accounts.ensure(phone).simPhone.identity
    // The phone: unwrap the companion's key with the code typed (garbage if it is wrong), wrap its own with it.
    const companionEphemeral = await unwrapKey(code, registration.wrappedCompanionKey)
    const ephemeral = newKeyPair()
    conn.send(
      node(
        'notification',
        { from: 's.whatsapp.net', type: 'link_code_companion_reg', id: conn.nextId(), t: unixNow() },
        [
          node('link_code_companion_reg', { stage: 'primary_hello' }, [
            node('link_code_pairing_ref', {}, registration.ref),
            node('primary_identity_pub', {}, identity.public),
            node('link_code_pairing_wrapped_primary_ephemeral_pub', {}, await wrapKey(code, ephemeral.public)),
          ]),
        ],
      ),
    )
    const finish = await finished
    const ephemeralAgreement = Curve.sharedKey(ephemeral.private, companionEphemeral)
    const bundle = openKeyBundle(ephemeralAgreement, finish.wrappedBundle)
    if (!bundle) throw new LinkCodeError("wrong code: the phone could not open the device's key bundle")
    const announced = this.pairing.registeringIdentity(conn)
    if (
      !bundle.primaryIdentity.equals(identity.public) ||
      !bundle.companionIdentity.equals(finish.companionIdentity) ||
      !announced?.equals(bundle.companionIdentity)
    )
      throw new LinkCodeError('the key bundle names other keys than the device and the phone')
    const identityAgreement = Curve.sharedKey(identity.private, bundle.companionIdentity)
    const advSecret = advSecretOf(ephemeralAgreement, identityAgreement, bundle.random)
    const paired = await this.pairing.pairConnection(conn, phone, advSecret).catch((err: Error) => {
      throw new LinkCodeError(err.message)
    })
    this.#byConn.delete(conn)
    return paired
  }

  /** Resolves with the client's companion_finish; fails when it does not come in time or the connection ends. */
  #awaitFinish(registration: Registration): Promise<Finish> {
    return new Promise<Finish>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer)
        registration.waiting = undefined
      }
      const timer = setTimeout(() => {
        settle()
        reject(new LinkCodeError('the device did not answer the code'))
      }, FINISH_WAIT_MS)
      registration.waiting = {
        resolve: finish => {
          settle()
          resolve(finish)
        },
        reject: err => {
          settle()
          reject(err)
        },
      }
    })
  }
}
