/**
 * @module actors/worker/worker
 * The piscina worker entry of one shard (one thread per shard). On load it opens the store, starts restoring the
 * shard's sessions in the background, and listens for aborts from the main thread. The default export handles one
 * task and always resolves with a `Reply`: errors travel as plain `{ code, message }` data.
 */
import { BroadcastChannel, workerData } from 'node:worker_threads'
import { move, transferableSymbol, valueSymbol } from 'piscina'
import { toWireError } from '../../protocol/errors.js'
import { readAnswerJson } from '../../protocol/read-answers.js'
import type { ShardSettings } from '../settings.js'
import { openShardStore } from './shard-store.js'
import { ShardHost } from './shard-host.js'
import { platformLoader } from './platform-loader.js'
import { SnapshotPublisher } from './publisher.js'
import { TaskAborts } from './task-aborts.js'
import {
  controlChannel,
  type ControlMessage,
  type Reply,
  type ShardReplies,
  type ShardRequest,
  type ShardRequestOf,
  type ShardTask,
  type ShardWorkerData,
} from '../../protocol/thread.js'
import { startThreadTelemetry } from '../../metrics/thread-telemetry.js'
import { startIdleHeapReducer } from '../idle-heap.js'
import { createRootLogger } from '../../logger.js'
import { MediaSlots } from '../../media/media-slots.js'

const data = workerData as ShardWorkerData<ShardSettings>
const logger = createRootLogger(data.settings.LOG_LEVEL, data.settings.LOG_FORMAT === 'pretty').child({
  shard: data.shard,
})

// Baileys has async event listeners; one unhandled rejection must not take down every session of the shard.
process.on('unhandledRejection', err => logger.error({ err }, 'unhandled rejection in shard worker'))
process.on('uncaughtException', err => logger.error({ err }, 'uncaught exception in shard worker'))

// lmdb, or the store engine of the mode (cluster mode: Redis, each link only under its session's lease)
const shardStore = await openShardStore(data.settings, data.storeEngine, logger)
const { store } = shardStore
const loadPlatform = platformLoader({
  linkModule: data.linkModule,
  sandboxUrl: data.settings.SANDBOX_URL,
  logger,
  facts: store.platformFacts,
  pinnedClientVersion: data.settings.PLATFORM_CLIENT_VERSION,
})
const publisher = new SnapshotPublisher(data.channelName)
const host = new ShardHost({
  shard: data.shard,
  shards: data.shards,
  store,
  settings: data.settings,
  logger,
  publisher,
  // the platform's own patches (e.g. libsignal's console) are installed when its module loads, before any link
  loadPlatform: shardStore.platform(loadPlatform),
  policy: data.policy,
  media: {
    downloads: new MediaSlots({
      shard: data.shard,
      perSession: 1,
      perShard: data.settings.MEDIA_DOWNLOADS_PER_PROCESS,
      perProcess: data.settings.MEDIA_DOWNLOADS_PER_PROCESS,
      shared: data.mediaSlots.downloads,
    }),
    cpu: new MediaSlots({
      shard: data.shard,
      perShard: data.settings.MEDIA_SENDS_PER_SHARD,
      perProcess: data.settings.MEDIA_SENDS_PER_PROCESS,
      shared: data.mediaSlots.cpu,
    }),
  },
})
// Not awaited: piscina only replaces a crashed thread that once reported ready, so the thread must become ready
// quickly even when restoring many sessions takes a while. Tasks do not wait for it either: a command for a session
// not restored yet starts that session at once (ShardHost), so the API answers throughout a long restore.
const restored = host.restore().catch(err => logger.error({ err }, 'restore failed'))
// Counters and event-loop delay to the main thread once a second; /readyz waits for the restore announcement.
const telemetry = startThreadTelemetry(data.channelName, `shard-${data.shard}`)
// once the thread falls quiet after pairing or a burst, it gives back the heap that work grew (idle-heap.ts)
const idleHeap = startIdleHeapReducer()
void restored.then(() => telemetry.announceRestored(data.shard))

// Aborts arrive on this shard's own channel because aborting a running piscina task would terminate the whole
// thread; one may come before its task or after it ended (task-aborts.ts).
const aborts = new TaskAborts()
const control = new BroadcastChannel(controlChannel(data.channelName, data.shard))
control.onmessage = (event: unknown) => {
  const message = (event as MessageEvent<ControlMessage>).data
  if (message?.type === 'abort') aborts.abort(message.taskId)
}
control.unref()

type RequestHandler<K extends ShardRequest['type']> = (
  task: ShardRequestOf<K>,
  signal: AbortSignal,
) => Promise<ShardReplies[K]>

/** What each request of the thread contract does on this shard, answering its type's `ShardReplies` entry. */
const REQUESTS: { [K in ShardRequest['type']]: RequestHandler<K> } = {
  command: (task, signal) => host.run(task.id, task.command, signal),
  read: async (task, signal) => readAnswerJson(task.command, await host.run(task.id, task.command, signal)),
  start: task => host.start(task.id),
  release: task => host.release(task.id),
  shutdown: () => host.shutdown(),
}

function dispatch<K extends ShardRequest['type']>(task: ShardRequestOf<K>, signal: AbortSignal) {
  const handler: RequestHandler<K> = REQUESTS[task.type]
  return handler(task, signal)
}

/** Closes what the thread holds once its sessions are shut down (the thread itself ends with the pool). */
async function closeThread(): Promise<void> {
  control.close()
  publisher.close()
  telemetry.stop()
  idleHeap.stop()
  await loadPlatform.closeThread() // the platform's own (its media pool), through the port
  shardStore.stop()
  await store.close()
}

/**
 * A reply carrying `bytes`, wrapped for piscina to post the reply itself with their ArrayBuffer in the transfer
 * list (moved, not cloned); the main thread receives the plain `Reply`.
 */
function movedReply(bytes: Uint8Array): Reply<Uint8Array> {
  const reply: Reply<Uint8Array> = { ok: true, value: bytes }
  return move({ [transferableSymbol]: [bytes.buffer], [valueSymbol]: reply }) as unknown as Reply<Uint8Array>
}

export default async function handle(task: ShardTask): Promise<Reply<ShardReplies[ShardTask['type']]>> {
  const signal = aborts.begin(task.taskId)
  try {
    const value = await dispatch(task, signal)
    // a read's answer: its bytes change threads without a copy (this thread keeps none of them)
    return value instanceof Uint8Array ? movedReply(value) : { ok: true, value }
  } catch (err) {
    const error = toWireError(err)
    const command = task.type === 'command' || task.type === 'read' ? task.command.type : task.type
    if (error.code === 'INTERNAL' && !signal.aborted) logger.error({ err, command }, 'command failed')
    return { ok: false, error }
  } finally {
    aborts.end(task.taskId)
    if (task.type === 'shutdown') await closeThread()
  }
}
