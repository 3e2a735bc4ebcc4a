/**
 * @module sandbox/pairing
 * QR pairing as the phone does it: a registering client gets a list of refs in `pair-device`; `POST /scan` with the
 * QR string it displayed finds the ref, checks it is live and that the keys in it belong to that connection, then
 * the phone signs the companion's identity (ADV), sends `pair-success`, checks the client's counter-signature and
 * forces the 515 restart. The client then logs in with the new device. Pairing by code (link-code.ts) ends in the
 * same pair-success, with the ADV secret the code's key agreement derived instead of the QR's. Fault
 * `wrongAccountSignature`: the account signature is made with a throwaway key, not the phone identity it names (a
 * checking client refuses to pair).
 */
import { createHmac, randomBytes } from 'node:crypto'
import { Curve, proto } from '@whiskeysockets/baileys'
import { verifySignature } from 'libsignal/src/curve.js'
import type { AccountRegistry } from './accounts.js'
import { newKeyPair, type KeyPair } from './certs.js'
import type { CompanionConnection } from './connection.js'
import type { QrPolicy } from './context.js'
import type { FaultState } from './faults.js'
import { child, bytes, node, unixNow } from './nodes.js'
import { signalPub } from './signal-store.js'
import type { World } from './types.js'
import { worldAccount } from './world.js'

const ADV_ACCOUNT_SIG_PREFIX = Buffer.from([6, 0])
const ADV_DEVICE_SIG_PREFIX = Buffer.from([6, 1])
const QR_PREFIX = 'https://wa.me/settings/linked_devices#'

interface RefSlot {
  ref: string
  expiresAt: number
}

interface PendingRegistration {
  conn: CompanionConnection
  refs: RefSlot[]
  identity: Buffer
  registrationId: number
  signedPreKey: { id: number; public: Buffer; signature: Buffer }
  busy: boolean
}

export interface AdvSigning {
  /** ADVDeviceIdentity bytes (raw id, timestamp, key index, device type). */
  details: Buffer
  /** The companion's identity key (32 bytes), as the QR showed it. */
  companionIdentity: Buffer
  /** The phone's identity: its public key is named as accountSignatureKey. */
  phoneIdentity: KeyPair
  /** The 32-byte ADV secret from the QR, keying the HMAC. */
  advSecret: Buffer
  /** The private key that makes the account signature; the phone's own unless a fault says otherwise. */
  signingKey?: Buffer
}

/** pair-success's `device-identity` content: ADVSignedDeviceIdentityHMAC over the phone's account signature. */
export function advDeviceIdentity(adv: AdvSigning): Uint8Array {
  const { details, companionIdentity, phoneIdentity, advSecret } = adv
  const signingKey = adv.signingKey ?? phoneIdentity.private
  const accountSignature = Buffer.from(
    Curve.sign(signingKey, Buffer.concat([ADV_ACCOUNT_SIG_PREFIX, details, companionIdentity])),
  )
  const signedIdentity = Buffer.from(
    proto.ADVSignedDeviceIdentity.encode({
      details,
      accountSignatureKey: phoneIdentity.public,
      accountSignature,
    }).finish(),
  )
  const hmac = createHmac('sha256', advSecret).update(signedIdentity).digest()
  return proto.ADVSignedDeviceIdentityHMAC.encode({ details: signedIdentity, hmac }).finish()
}

/** A scan the phone refuses; the control API answers 400 with its message. */
export class ScanError extends Error {}

const readBE = (buf: Uint8Array | null | undefined): number =>
  buf?.length ? Buffer.from(buf).readUIntBE(0, buf.length) : 0

export class PairingRegistry {
  readonly #byRef = new Map<string, PendingRegistration>()
  readonly #byConn = new Map<CompanionConnection, PendingRegistration>()

  constructor(
    private readonly accounts: AccountRegistry,
    private readonly qr: QrPolicy,
    private readonly world: () => World,
    private readonly faults: FaultState,
  ) {}

  /** A client without credentials finished the handshake: send it the QR refs. */
  register(conn: CompanionConnection): void {
    const data = conn.payload?.devicePairingData
    if (!data?.eIdent || !data.eSkeyVal || !data.eSkeySig) throw new Error('registration payload without keys')
    const now = Date.now()
    const refs: RefSlot[] = Array.from({ length: this.qr.qrRefs }, (_, i) => ({
      ref: `2@${randomBytes(24).toString('base64')}`,
      expiresAt: now + this.qr.qrFirstMs + i * this.qr.qrNextMs,
    }))
    const pending: PendingRegistration = {
      conn,
      refs,
      identity: Buffer.from(data.eIdent),
      registrationId: readBE(data.eRegid),
      signedPreKey: {
        id: readBE(data.eSkeyId),
        public: Buffer.from(data.eSkeyVal),
        signature: Buffer.from(data.eSkeySig),
      },
      busy: false,
    }
    for (const slot of refs) this.#byRef.set(slot.ref, pending)
    this.#byConn.set(conn, pending)
    conn.send(
      node('iq', { from: 's.whatsapp.net', type: 'set', id: conn.nextId(), xmlns: 'md' }, [
        node(
          'pair-device',
          {},
          refs.map(slot => node('ref', {}, slot.ref)),
        ),
      ]),
    )
  }

  forget(conn: CompanionConnection): void {
    for (const [ref, pending] of this.#byRef) if (pending.conn === conn) this.#byRef.delete(ref)
    this.#byConn.delete(conn)
  }

  /** The identity key a registering connection announced (devicePairingData); undefined once paired or closed. */
  registeringIdentity(conn: CompanionConnection): Buffer | undefined {
    return conn.closed ? undefined : this.#byConn.get(conn)?.identity
  }

  /** Pairing by code: the phone pairs the registering connection with the ADV secret the code's agreement gave. */
  async pairConnection(
    conn: CompanionConnection,
    phone: string,
    advSecret: Buffer,
  ): Promise<{ phone: string; device: number }> {
    const pending = this.#byConn.get(conn)
    if (!pending || conn.closed) throw new ScanError('the device is no longer waiting to be linked')
    return this.#pairOnce(pending, phone, advSecret)
  }

  /** The phone scans a QR string. Resolves once the client has counter-signed the pairing. */
  async scan(qr: string, phone: string): Promise<{ phone: string; device: number }> {
    if (typeof qr !== 'string' || !qr.startsWith(QR_PREFIX))
      throw new ScanError('malformed QR: not a linked-devices QR')
    const parts = qr.slice(QR_PREFIX.length).split(',')
    if (parts.length !== 5) throw new ScanError('malformed QR: expected ref,noiseKey,identityKey,advSecret,platform')
    const [ref, noiseB64, identityB64, advB64] = parts as [string, string, string, string]
    const pending = this.#byRef.get(ref)
    if (!pending || pending.conn.closed) throw new ScanError('unknown QR: no client is showing it')
    const slot = pending.refs.find(s => s.ref === ref)
    if (!slot || Date.now() > slot.expiresAt) throw new ScanError('expired QR: ask the client for a fresh one')
    const conn = pending.conn
    if (!conn.clientStatic?.equals(Buffer.from(noiseB64, 'base64')))
      throw new ScanError('QR noise key does not match the connection')
    if (!pending.identity.equals(Buffer.from(identityB64, 'base64')))
      throw new ScanError('QR identity key does not match the connection')
    const advSecret = Buffer.from(advB64, 'base64')
    if (advSecret.length !== 32) throw new ScanError('malformed QR: bad adv secret')
    return this.#pairOnce(pending, phone, advSecret)
  }

  /** One pairing at a time per registration: a QR scan and a code cannot both link the same client. */
  async #pairOnce(
    pending: PendingRegistration,
    phone: string,
    advSecret: Buffer,
  ): Promise<{ phone: string; device: number }> {
    if (pending.busy) throw new ScanError('QR already scanned or code already entered: the client is being linked')
    pending.busy = true
    try {
      return await this.#pair(pending, phone, advSecret)
    } finally {
      pending.busy = false
    }
  }

  async #pair(
    pending: PendingRegistration,
    phone: string,
    advSecret: Buffer,
  ): Promise<{ phone: string; device: number }> {
    const account = this.accounts.ensure(phone)
    const { device, keyIndex } = account.allocateDevice()
    const phoneIdentity = account.simPhone.identity
    const details = Buffer.from(
      proto.ADVDeviceIdentity.encode({
        rawId: randomBytes(4).readUInt32BE(0),
        timestamp: Math.floor(Date.now() / 1000),
        keyIndex,
        deviceType: 0,
      }).finish(),
    )
    const identityHmac = advDeviceIdentity({
      details,
      companionIdentity: pending.identity,
      phoneIdentity,
      advSecret,
      ...(this.faults.wrongAccountSignature ? { signingKey: newKeyPair().private } : {}),
    })
    const name = worldAccount(this.world(), phone)?.name
    const conn = pending.conn
    const reply = await conn
      .query(
        node('iq', { from: 's.whatsapp.net', type: 'set', xmlns: 'md', t: unixNow() }, [
          node('pair-success', {}, [
            node('device-identity', {}, identityHmac),
            node('platform', { name: 'android' }),
            node('device', { jid: `${phone}:${device}@s.whatsapp.net`, lid: `${account.lid}:${device}@lid` }),
            // Baileys stores biz name as creds.me.name, which `presence available` needs (gotcha 9).
            ...(name ? [node('biz', { name })] : []),
          ]),
        ]),
      )
      .catch((err: Error) => {
        // a client that refuses pair-success (e.g. its account signature is wrong) closes instead of answering
        throw new ScanError(`client refused the pairing: ${err.message}`)
      })
    const signed = bytes(child(child(reply, 'pair-device-sign'), 'device-identity'))
    if (reply.attrs.type !== 'result' || !signed) throw new ScanError('client refused the pairing')
    const deviceIdentity = proto.ADVSignedDeviceIdentity.decode(signed)
    const deviceMsg = Buffer.concat([ADV_DEVICE_SIG_PREFIX, details, pending.identity, phoneIdentity.public])
    if (
      !deviceIdentity.deviceSignature ||
      !verifySignature(signalPub(pending.identity), deviceMsg, deviceIdentity.deviceSignature)
    ) {
      throw new ScanError('client device signature is invalid')
    }
    account.companions.set(device, {
      device,
      keyIndex,
      noiseKey: Buffer.from(conn.clientStatic ?? Buffer.alloc(0)),
      identity: pending.identity,
      registrationId: pending.registrationId,
      signedPreKey: pending.signedPreKey,
      preKeys: new Map(),
      initialSyncSent: false,
      offline: [],
      ...deviceName(conn.payload?.devicePairingData?.deviceProps),
    })
    this.forget(conn)
    // The platform ends the registration stream; the client reconnects and logs in as the new device.
    conn.streamError(515)
    return { phone, device }
  }
}

/** The device name a registration gave (DeviceProps `os`: what the phone lists the linked device as), if any. */
function deviceName(props: Uint8Array | null | undefined): { name?: string } {
  if (!props?.length) return {}
  try {
    const os = proto.DeviceProps.decode(props).os
    return os ? { name: os } : {}
  } catch {
    return {}
  }
}
