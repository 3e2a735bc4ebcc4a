/**
 * @module sandbox/accounts
 * Simulated accounts: each phone (device 0) is a real Signal party with an identity, a signed prekey and one-time
 * prekeys; companions (linked devices, i.e. Baileys clients) are recorded with the keys they uploaded. A PN↔LID
 * registry resolves either address form, since Baileys fetches bundles by LID but addresses messages by PN.
 */
import { randomInt } from 'node:crypto'
import { Curve, jidDecode } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { newKeyPair, type KeyPair } from './certs.js'
import type { SessionRecord } from 'libsignal'
import type { SenderKeyRecord } from '@whiskeysockets/baileys/lib/Signal/Group/index.js'
import { PhoneSignalStore, signalPub, type SignedPreKey } from './signal-store.js'
import type { InboxMessage, PresenceEvent } from './types.js'

/** What a live client connection offers the rest of the sandbox. */
export interface CompanionLink {
  send(node: BinaryNode): void
  /** Ends the stream with `<stream:error code=…>` and closes. */
  streamError(code: number, child?: BinaryNode): void
  /** Drops the socket without a goodbye, like a network failure. */
  terminate(): void
  /** A newer login of the same device replaced this link: nothing it sends from now on may be acted on. */
  supersede(): void
}

/** A prekey bundle as the `encrypt` iq serves it (public keys without the 0x05 prefix). */
export interface PrekeyBundle {
  registrationId: number
  identity: Buffer
  signedPreKey: { id: number; public: Buffer; signature: Buffer }
  preKey?: { id: number; public: Buffer }
}

/** A linked device (a Baileys client) of an account. */
export interface Companion {
  device: number
  keyIndex: number
  noiseKey: Buffer
  identity: Buffer
  registrationId: number
  signedPreKey: { id: number; public: Buffer; signature: Buffer }
  preKeys: Map<number, Buffer>
  link?: CompanionLink
  /** The phone sends history + app-state keys once, on the first login after pairing. */
  initialSyncSent: boolean
  /** Stanzas that arrived while the device was offline; delivered on its next login, as the platform does. */
  offline: BinaryNode[]
  /** The name the phone's linked-devices list shows (the registration's DeviceProps `os`); absent when none came. */
  name?: string
}

const OFFLINE_LIMIT = 1000

/** Sends to a companion now, or keeps it for its next login. */
export function deliverToCompanion(companion: Companion, stanza: BinaryNode): void {
  if (companion.link) companion.link.send(stanza)
  else if (companion.offline.length < OFFLINE_LIMIT) companion.offline.push(stanza)
}

const PREKEY_BATCH = 20

/** What a simulated phone must keep to be the same Signal party after a restart (sandbox state file). */
export interface SimPhoneState {
  identity: KeyPair
  registrationId: number
  signedPreKey: SignedPreKey
  preKeys: Array<[number, KeyPair]>
  nextPreKeyId: number
  fresh: number[]
  sessions: Array<[string, SessionRecord]>
  senderKeys: Array<[string, SenderKeyRecord]>
}

/** Device 0 of an account: holds private keys, decrypts what is sent to it. */
export class SimPhone {
  readonly identity: KeyPair
  readonly registrationId: number
  readonly signedPreKey: SignedPreKey
  readonly preKeys: Map<number, KeyPair>
  readonly store: PhoneSignalStore
  #nextPreKeyId = 1
  readonly #fresh: number[] = []

  constructor(saved?: SimPhoneState) {
    this.identity = saved?.identity ?? newKeyPair()
    this.registrationId = saved?.registrationId ?? randomInt(1, 16380)
    this.preKeys = new Map(saved?.preKeys)
    if (saved) {
      this.signedPreKey = saved.signedPreKey
      this.#nextPreKeyId = saved.nextPreKeyId
      this.#fresh.push(...saved.fresh)
    } else {
      const keyPair = newKeyPair()
      this.signedPreKey = {
        keyId: 1,
        keyPair,
        signature: Buffer.from(Curve.sign(this.identity.private, signalPub(keyPair.public))),
      }
      this.#refill()
    }
    this.store = new PhoneSignalStore(this.identity, this.registrationId, this.signedPreKey, this.preKeys)
    for (const [id, record] of saved?.sessions ?? []) this.store.sessions.set(id, record)
    for (const [id, record] of saved?.senderKeys ?? []) this.store.senderKeys.set(id, record)
  }

  toState(): SimPhoneState {
    return {
      identity: this.identity,
      registrationId: this.registrationId,
      signedPreKey: this.signedPreKey,
      preKeys: [...this.preKeys],
      nextPreKeyId: this.#nextPreKeyId,
      fresh: [...this.#fresh],
      sessions: [...this.store.sessions],
      senderKeys: [...this.store.senderKeys],
    }
  }

  #refill(): void {
    for (let i = 0; i < PREKEY_BATCH; i++) {
      const id = this.#nextPreKeyId++
      this.preKeys.set(id, newKeyPair())
      this.#fresh.push(id)
    }
  }

  /** Hands out a bundle with a one-time prekey never handed out before (kept until a pkmsg consumes it). */
  takeBundle(): PrekeyBundle {
    if (this.#fresh.length === 0) this.#refill()
    const id = this.#fresh.shift() ?? 0
    const pair = this.preKeys.get(id)
    return {
      registrationId: this.registrationId,
      identity: this.identity.public,
      signedPreKey: {
        id: this.signedPreKey.keyId,
        public: this.signedPreKey.keyPair.public,
        signature: this.signedPreKey.signature,
      },
      preKey: pair ? { id, public: pair.public } : undefined,
    }
  }
}

/** What an account must keep across a sandbox restart: its phone and its paired companions (not live links). */
export interface AccountState {
  phone: string
  lid: string
  simPhone: SimPhoneState
  companions: Array<Omit<Companion, 'link' | 'offline' | 'preKeys'> & { preKeys: Array<[number, Buffer]> }>
  nextDevice: number
  nextKeyIndex: number
}

export class Account {
  readonly phone: string
  readonly lid: string
  readonly simPhone: SimPhone
  readonly companions = new Map<number, Companion>()
  readonly inbox: InboxMessage[] = []
  readonly presence: PresenceEvent[] = []
  #nextDevice = 1
  #nextKeyIndex = 1

  constructor(phone: string, lid: string, saved?: AccountState) {
    this.phone = phone
    this.lid = lid
    this.simPhone = new SimPhone(saved?.simPhone)
    if (saved) {
      for (const c of saved.companions)
        this.companions.set(c.device, { ...c, preKeys: new Map(c.preKeys), offline: [] })
      this.#nextDevice = saved.nextDevice
      this.#nextKeyIndex = saved.nextKeyIndex
    }
  }

  /** Offline stanzas and inbox records are not kept: a restored sandbox starts with empty queues. */
  toState(): AccountState {
    return {
      phone: this.phone,
      lid: this.lid,
      simPhone: this.simPhone.toState(),
      companions: [...this.companions.values()].map(({ link: _link, offline: _offline, preKeys, ...kept }) => ({
        ...kept,
        preKeys: [...preKeys],
      })),
      nextDevice: this.#nextDevice,
      nextKeyIndex: this.#nextKeyIndex,
    }
  }

  get pnJid(): string {
    return `${this.phone}@s.whatsapp.net`
  }
  get lidJid(): string {
    return `${this.lid}@lid`
  }

  allocateDevice(): { device: number; keyIndex: number } {
    return { device: this.#nextDevice++, keyIndex: this.#nextKeyIndex++ }
  }

  /** Devices as usync lists them: the phone, then every paired companion. */
  deviceIds(): number[] {
    return [0, ...this.companions.keys()]
  }

  bundleFor(device: number): PrekeyBundle | undefined {
    if (device === 0) return this.simPhone.takeBundle()
    const companion = this.companions.get(device)
    if (!companion) return undefined
    const first = companion.preKeys.entries().next()
    let preKey: PrekeyBundle['preKey']
    if (!first.done) {
      const [id, pub] = first.value
      companion.preKeys.delete(id) // one-time prekeys are handed out once, as the server does
      preKey = { id, public: pub }
    }
    return {
      registrationId: companion.registrationId,
      identity: companion.identity,
      signedPreKey: companion.signedPreKey,
      preKey,
    }
  }
}

/** Resolution of any user or device JID to an account and device number. */
export interface ResolvedJid {
  account: Account
  device: number
}

export class AccountRegistry {
  readonly #byPhone = new Map<string, Account>()
  readonly #byLid = new Map<string, Account>()
  #nextLid = 100000000000001

  get(phone: string): Account | undefined {
    return this.#byPhone.get(phone)
  }

  ensure(phone: string): Account {
    let account = this.#byPhone.get(phone)
    if (!account) {
      const lid = String(this.#nextLid++)
      account = new Account(phone, lid)
      this.#byPhone.set(phone, account)
      this.#byLid.set(lid, account)
    }
    return account
  }

  all(): Account[] {
    return [...this.#byPhone.values()]
  }

  /** Accounts and the next LID, for the sandbox state file. */
  toState(): { nextLid: number; accounts: AccountState[] } {
    return { nextLid: this.#nextLid, accounts: this.all().map(a => a.toState()) }
  }

  /** Replaces every account with the saved ones (before any client connects). */
  restore(state: { nextLid: number; accounts: AccountState[] }): void {
    this.#byPhone.clear()
    this.#byLid.clear()
    for (const saved of state.accounts) {
      const account = new Account(saved.phone, saved.lid, saved)
      this.#byPhone.set(account.phone, account)
      this.#byLid.set(account.lid, account)
    }
    this.#nextLid = state.nextLid
  }

  /** `1555…@s.whatsapp.net`, `1555…:2@s.whatsapp.net`, `1000…@lid`, `1000…:1@lid` → account + device. */
  resolve(jid: string): ResolvedJid | undefined {
    const decoded = jidDecode(jid)
    if (!decoded?.user) return undefined
    const device = decoded.device ?? 0
    if (decoded.server === 'lid') {
      const account = this.#byLid.get(decoded.user)
      return account ? { account, device } : undefined
    }
    if (decoded.server === 's.whatsapp.net' || decoded.server === 'c.us') {
      const account = this.#byPhone.get(decoded.user)
      return account ? { account, device } : undefined
    }
    return undefined
  }
}
