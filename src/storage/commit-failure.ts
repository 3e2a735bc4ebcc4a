/**
 * @module storage/commit-failure
 * What a failed lmdb commit (disk full, file-size limit, I/O error) looks like from here. lmdb-js rejects the
 * writer's promise with `Commit failed (see commitError for details)`, puts the real cause in a second promise
 * (`commitError`), and rejects one more promise of that commit that no caller holds. Unhandled, either of the
 * last two would end the process (or the worker thread) over a failure the writer already got. `committed()`
 * awaits a write and turns a failed commit into one error naming the cause; `ignoreCommitEchoes()` drops lmdb's
 * orphan rejection (and only that: anything else still ends the process, as Node would).
 */

class StorageWriteError extends Error {
  constructor(cause: unknown) {
    super(`storage write failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'StorageWriteError'
  }
}

const isFailedCommit = (err: unknown): err is Error & { commitError: Promise<unknown> } =>
  err instanceof Error &&
  err.message.startsWith('Commit failed') &&
  typeof (err as { commitError?: { then?: unknown } }).commitError?.then === 'function'

/** Awaits an lmdb write; a failed commit rejects with a `StorageWriteError` carrying lmdb's cause. */
export async function committed<T>(write: Promise<T>): Promise<T> {
  try {
    return await write
  } catch (err) {
    if (!isFailedCommit(err)) throw err
    throw new StorageWriteError(
      await err.commitError.then(
        () => err,
        (cause: unknown) => cause,
      ),
    )
  }
}

let installed = false

/** Once per thread: lmdb's orphan rejection of a failed commit is dropped; every other one is rethrown. */
export function ignoreCommitEchoes(): void {
  if (installed) return
  installed = true
  process.on('unhandledRejection', reason => {
    if (isFailedCommit(reason)) {
      reason.commitError.catch(() => undefined)
      return
    }
    throw reason
  })
}
