/**
 * libsignal queues the work on one Signal address in a module-global queue, and a job queued behind a busy run
 * used to run in the async context of whoever started that run (src/platform/baileys/patches/signal-queue-context.ts). These
 * tests hold the queue busy on purpose: first the mechanism with plain libsignal, then what a user saw, with
 * Baileys' own key-store transactions: a message that the contact's phone cannot decrypt.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import {
  addTransactionCapability,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  type AuthenticationCreds,
  type SignalKeyStoreWithTransaction,
} from '@whiskeysockets/baileys'
import { makeLibSignalRepository } from '@whiskeysockets/baileys/lib/Signal/libsignal.js'
import { ProtocolAddress, SessionBuilder, SessionCipher, type SignalStorage } from 'libsignal'
import pino from 'pino'
import { beforeAll, describe, expect, it } from 'vitest'
import { installSignalQueueContext } from '../../../../../src/platform/baileys/patches/signal-queue-context.js'
import { newKeyPair } from '../../../../../src/sandbox/certs.js'
import { SimPhone } from '../../../../../src/sandbox/accounts.js'
import { signalPub } from '../../../../../src/sandbox/signal-store.js'
import { memoryAuthStore } from '../../../../support/fakes/memory-stores.js'

const log = pino({ level: 'silent' })
const ALICE_JID = '15550000001:1@s.whatsapp.net'
const BOB_USER = '15550000002'
const BOB_JID = `${BOB_USER}@s.whatsapp.net`
const bobAddress = () => new ProtocolAddress(BOB_USER, 0) // what Baileys makes of BOB_JID: the queue's key

/** Whether `address` has an open session: one queued job that only reads (not in the typings). */
const hasOpenSession = (storage: SignalStorage) =>
  (new SessionCipher(storage, bobAddress()) as unknown as { hasOpenSession(): Promise<boolean> }).hasOpenSession()

const nextMacrotask = () => new Promise<void>(resolve => setImmediate(resolve))

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>(r => {
    resolve = r
  })
  return { promise, resolve }
}

/** A contact's phone (the sandbox's), and a bundle of its keys as Baileys injects one from the server's answer. */
function contactPhone() {
  const phone = new SimPhone()
  const bundle = () => {
    const b = phone.takeBundle()
    return {
      registrationId: b.registrationId,
      identityKey: signalPub(b.identity),
      signedPreKey: {
        keyId: b.signedPreKey.id,
        publicKey: signalPub(b.signedPreKey.public),
        signature: b.signedPreKey.signature,
      },
      preKey: { keyId: b.preKey!.id, publicKey: signalPub(b.preKey!.public) },
    }
  }
  return { store: phone.store, bundle }
}

/**
 * Another user of the contact's queue (another session of the thread sending to the same contact): its job holds
 * the queue until `release`. Queue it while a job for that address is running, so the run goes on behind it.
 */
function queueHolder() {
  const gate = deferred()
  const identity = newKeyPair()
  const storage = {
    getOurIdentity: () => ({ privKey: identity.private, pubKey: signalPub(identity.public) }),
    loadSession: async () => {
      await gate.promise
      return undefined
    }, // then "No sessions": its outcome is not ours
  } as unknown as SignalStorage
  let done: Promise<unknown> = Promise.resolve()
  return {
    hold: () => {
      done = new SessionCipher(storage, bobAddress()).encrypt(Buffer.from('other')).catch(() => undefined)
    },
    release: async () => {
      gate.resolve()
      await done
    },
  }
}

beforeAll(() => installSignalQueueContext())

describe('libsignal jobs queued behind a busy address', () => {
  it('run in the context of the code that queued them, for the cipher and the session builder', async () => {
    const context = new AsyncLocalStorage<string>()
    const phone = contactPhone()
    const seen: { op: string; context: string | undefined }[] = []
    const records = new Map<string, unknown>()
    const storage = (label: string, gate?: Promise<void>) =>
      ({
        getOurIdentity: () => phone.store.getOurIdentity(),
        getOurRegistrationId: () => 1,
        isTrustedIdentity: () => {
          seen.push({ op: `${label}:trust`, context: context.getStore() })
          return true
        },
        loadSession: async (id: string) => {
          seen.push({ op: `${label}:load`, context: context.getStore() })
          await gate
          return records.get(id)
        },
        storeSession: async (id: string, record: unknown) => {
          seen.push({ op: `${label}:store`, context: context.getStore() })
          records.set(id, record)
        },
      }) as unknown as SignalStorage

    const gate = deferred()
    // "first" starts the run for the address and holds it; "builder" and "cipher" are queued behind it
    const first = context.run('first', () => hasOpenSession(storage('first', gate.promise)))
    const built = context.run('builder', () =>
      new SessionBuilder(storage('builder'), bobAddress()).initOutgoing(phone.bundle()),
    )
    const checked = context.run('cipher', () => hasOpenSession(storage('cipher')))
    await nextMacrotask()
    gate.resolve()
    await Promise.all([first, built, checked])

    expect(seen.length).toBeGreaterThanOrEqual(5)
    for (const { op, context: ran } of seen) expect(ran, op).toBe(op.split(':')[0])
  })
})

describe('a burst to one contact while another session sends to it (Baileys key-store transactions)', () => {
  /** One gateway session's Signal side, built as a socket builds it: transactions over the cached key store. */
  function senderSide() {
    const auth = memoryAuthStore()
    const creds: AuthenticationCreds = { ...initAuthCreds(), me: { id: ALICE_JID } }
    // as makeWASocket builds it: a transaction storage of its own over the cached key store
    const keys: SignalKeyStoreWithTransaction = addTransactionCapability(
      makeCacheableSignalKeyStore(auth.keys, log),
      log,
      { maxCommitRetries: 1, delayBetweenTriesMs: 0 },
    )
    let onSessionRead: (() => Promise<void>) | undefined
    const observed: SignalKeyStoreWithTransaction = {
      ...keys,
      get: async (type, ids) => {
        const hook = type === 'session' ? onSessionRead : undefined
        if (hook) {
          onSessionRead = undefined
          await hook()
        }
        return keys.get(type, ids)
      },
    }
    const repository = makeLibSignalRepository({ creds, keys: observed }, log)
    return {
      repository,
      creds,
      whenSessionRead: (hook: () => Promise<void>) => {
        onSessionRead = hook
      },
    }
  }

  it("every message decrypts on the contact's phone, in order", async () => {
    const phone = contactPhone()
    const alice = senderSide()
    await alice.repository.injectE2ESession({ jid: BOB_JID, session: phone.bundle() })
    const text = (n: number) => Buffer.from(`message ${n}`)
    const other = queueHolder()

    // Message 1 starts the run for Bob's address; the other session queues behind it and holds the run open.
    alice.whenSessionRead(async () => {
      other.hold()
      await nextMacrotask()
    })
    const m1 = await alice.repository.encryptMessage({ jid: BOB_JID, data: text(1) })
    // Message 2, a new transaction, waits behind the other session, in the run message 1 started.
    const m2Pending = alice.repository.encryptMessage({ jid: BOB_JID, data: text(2) })
    await nextMacrotask()
    await other.release()
    const m2 = await m2Pending
    const m3 = await alice.repository.encryptMessage({ jid: BOB_JID, data: text(3) })

    const bob = new SessionCipher(phone.store, new ProtocolAddress('15550000001', 1))
    const received: string[] = []
    for (const m of [m1, m2, m3]) {
      expect(m.type).toBe('pkmsg') // Bob has not answered: each still carries the prekey bundle
      received.push((await bob.decryptPreKeyWhisperMessage(m.ciphertext)).toString())
    }
    expect(received).toEqual(['message 1', 'message 2', 'message 3'])
  })
})
