/**
 * @module platform/baileys/media/media-pool
 * The shard's media pool: a few threads (at most one per media send the shard runs at once, media-slots.ts) that
 * encrypt and upload media files at a low CPU priority (pool-thread.ts). Threads start on the first media send and
 * end after a quiet spell, so a gateway that sends no media holds none.
 */
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import type { UploadJob, UploadOutcome } from './upload-job.js'

/** A pool thread with no work for this long ends (the next media send starts one again, in a few ms). */
const IDLE_TIMEOUT_MS = 30_000

const fromSource = import.meta.url.endsWith('.ts')
const threadFile = (): string =>
  fileURLToPath(new URL(fromSource ? './pool-thread-dev.mjs' : './pool-thread.js', import.meta.url))

export interface MediaPoolOptions {
  threads: number
  /** The pool threads' nice value (0..19; 19 is the lowest priority). */
  nice: number
}

export class MediaPool {
  #pool: Piscina | undefined
  constructor(private readonly options: MediaPoolOptions) {}

  run(job: UploadJob): Promise<UploadOutcome> {
    this.#pool ??= new Piscina({
      filename: threadFile(),
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: IDLE_TIMEOUT_MS,
      workerData: { nice: this.options.nice },
    })
    return this.#pool.run(job) as Promise<UploadOutcome>
  }

  async close(): Promise<void> {
    const pool = this.#pool
    this.#pool = undefined
    await pool?.destroy()
  }
}

/** One pool per thread (each shard thread has its own): made on the first media send. */
let threadPool: MediaPool | undefined

export const threadMediaPool = (options: MediaPoolOptions): MediaPool => (threadPool ??= new MediaPool(options))

/** Ends this thread's pool (shard shutdown). */
export async function closeThreadMediaPool(): Promise<void> {
  const pool = threadPool
  threadPool = undefined
  await pool?.close()
}
