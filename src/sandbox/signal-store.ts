/**
 * @module sandbox/signal-store
 * In-memory libsignal storage for one simulated phone: its identity, signed and one-time prekeys, the 1:1 sessions it
 * holds with senders, and the sender keys (groups, status) it has been given.
 */
import { SenderKeyRecord } from '@whiskeysockets/baileys/lib/Signal/Group/index.js'
import type { SenderKeyName } from '@whiskeysockets/baileys/lib/Signal/Group/index.js'
import type { SessionRecord, SignalStorage } from 'libsignal'
import type { KeyPair } from './certs.js'

/** libsignal wants 33-byte public keys (0x05 type prefix). */
export const signalPub = (pub: Uint8Array): Buffer =>
  pub.length === 33 ? Buffer.from(pub) : Buffer.concat([Buffer.from([5]), pub])

export interface SignedPreKey {
  keyId: number
  keyPair: KeyPair
  signature: Buffer
}

export class PhoneSignalStore implements SignalStorage {
  readonly sessions = new Map<string, SessionRecord>()
  readonly senderKeys = new Map<string, SenderKeyRecord>()

  constructor(
    private readonly identity: KeyPair,
    private readonly registrationId: number,
    private readonly signedPreKey: SignedPreKey,
    private readonly preKeys: Map<number, KeyPair>,
  ) {}

  async loadSession(id: string): Promise<SessionRecord | undefined> {
    return this.sessions.get(id)
  }
  async storeSession(id: string, session: SessionRecord): Promise<void> {
    this.sessions.set(id, session)
  }
  /** Trust on first use, like a phone that has never seen the sender: the sandbox verifies content, not identities. */
  isTrustedIdentity(): boolean {
    return true
  }
  async loadPreKey(id: number | string): Promise<{ privKey: Buffer; pubKey: Buffer } | undefined> {
    const pair = this.preKeys.get(Number(id))
    return pair ? { privKey: pair.private, pubKey: signalPub(pair.public) } : undefined
  }
  removePreKey(id: number): void {
    this.preKeys.delete(Number(id))
  }
  loadSignedPreKey(): { privKey: Buffer; pubKey: Buffer } {
    return { privKey: this.signedPreKey.keyPair.private, pubKey: signalPub(this.signedPreKey.keyPair.public) }
  }
  getOurRegistrationId(): number {
    return this.registrationId
  }
  getOurIdentity(): { privKey: Buffer; pubKey: Buffer } {
    return { privKey: this.identity.private, pubKey: signalPub(this.identity.public) }
  }
  // Sender-key store interface used by Baileys' GroupCipher / GroupSessionBuilder.
  async loadSenderKey(name: SenderKeyName): Promise<SenderKeyRecord> {
    return this.senderKeys.get(name.toString()) ?? new SenderKeyRecord()
  }
  async storeSenderKey(name: SenderKeyName, record: SenderKeyRecord): Promise<void> {
    this.senderKeys.set(name.toString(), record)
  }
}
