/**
 * @module platform/baileys/patches/signal-queue-context
 * Runs each of libsignal's per-address jobs in the async context of the code that queued it.
 *
 * Why: libsignal serialises the work on one Signal address (a contact's device) in a module-global queue
 * (`libsignal/src/queue_job.js`). A job queued while that address's queue is busy runs in the async context of
 * whoever started the busy run, not in its own. Baileys keeps its key-store transaction in the async context
 * (`addTransactionCapability`), so such a job read and wrote the wrong transaction: typically one of the same
 * session's earlier sends, already committed. The ratchet step of that message was written into a finished
 * transaction and lost, the next message to the contact reused its counter, and the contact's phone refused it
 * ("Key used already or never filled") although the server had acknowledged it with 200. One queue per address is
 * shared by every session of the thread, so several sessions sending to one contact at once kept the queue busy:
 * about one burst in three right after pairing lost a message (test/unit/platform/baileys/patches/signal-queue-context.test.ts shows the
 * mechanism with one session; test/system/messages/contact-burst.test.ts the bursts).
 *
 * How: `SessionCipher` queues every job through its `queueJob` method, which is wrapped to bind the job to the
 * caller's context. `SessionBuilder.initOutgoing` calls the queue function directly, so it runs with a proxy of its
 * storage whose methods execute in the caller's context. No node_modules edit; installed once per thread, before
 * the first socket opens (socket-config.ts).
 */
import { AsyncResource } from 'node:async_hooks'
import { createRequire } from 'node:module'
import type * as Libsignal from 'libsignal'

// The copy of libsignal Baileys loads, whichever one this package would resolve on its own.
const fromBaileys = createRequire(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))
const { SessionBuilder, SessionCipher } = fromBaileys('libsignal') as typeof Libsignal

const INSTALLED = Symbol.for('gateway.signal-queue-context')

type Job = () => Promise<unknown>
type Prototype = Record<PropertyKey, unknown>

interface CipherPrototype extends Prototype {
  queueJob: (this: unknown, job: Job) => Promise<unknown>
}
interface BuilderPrototype extends Prototype {
  initOutgoing: (this: { storage: object }, device: unknown) => Promise<void>
}

/** A proxy of `storage` whose methods all run in the async context of `scope`, wherever they are called from. */
function storageIn(scope: AsyncResource, storage: object): object {
  return new Proxy(storage, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => scope.runInAsyncScope(value as (...a: unknown[]) => unknown, target, ...args)
    },
  })
}

/** Idempotent: the prototypes are shared by every socket of the thread. */
export function installSignalQueueContext(): void {
  const cipher = SessionCipher.prototype as unknown as CipherPrototype
  if (cipher[INSTALLED]) return
  const queueJob = cipher.queueJob
  cipher.queueJob = function (this: unknown, job: Job) {
    // One AsyncResource and a named function (libsignal names an unnamed job), not `AsyncResource.bind`: that also
    // defines two deprecated accessors on each bound function, 2.1 µs and ~1.6 KB of garbage a job against 0.1 µs,
    // for a job per device every message is encrypted to.
    const scope = new AsyncResource('SignalQueueJob')
    return queueJob.call(this, function inCallerContext() {
      return scope.runInAsyncScope(job)
    })
  }
  const builder = SessionBuilder.prototype as unknown as BuilderPrototype
  const initOutgoing = builder.initOutgoing
  builder.initOutgoing = function (this: { storage: object }, device: unknown) {
    const scope = new AsyncResource('SignalSessionBuilder')
    // the same builder, seen with a storage pinned to this call's context (its job may run in another one)
    const pinned = Object.create(this, { storage: { value: storageIn(scope, this.storage) } }) as { storage: object }
    return initOutgoing.call(pinned, device)
  }
  cipher[INSTALLED] = true
}
