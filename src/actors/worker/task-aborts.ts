/**
 * @module actors/worker/task-aborts
 * The abort signals of the tasks a shard's thread runs. An abort comes on the shard's own control channel, not with
 * its task (aborting a running piscina task would end the thread and every session on it), so it may arrive before
 * its task, or after the task ended (the client hung up while the reply was on its way).
 *
 * The main thread numbers tasks in the order it posts them (shard-thread.ts), and piscina hands a thread its tasks in
 * that order. So an abort above the highest task number seen is early: it is kept until its task arrives, and what
 * is kept is bounded by the tasks posted and not yet arrived (the shard's limit). An abort at or below it, of a task
 * not running, is late and dropped. (Piscina may put a queued task back behind later ones only when the thread is
 * past its concurrency, which admission keeps commands below; such a task would then run although aborted, as if
 * its abort had come too late.)
 *
 * @example
 * const aborts = new TaskAborts()
 * aborts.abort(7) // before task 7 arrived: kept
 * aborts.begin(7).aborted // true
 * aborts.end(7)
 */
export class TaskAborts {
  readonly #running = new Map<number, AbortController>()
  readonly #early = new Set<number>()
  #highest = 0

  /** Aborts that came before their task, waiting for it. */
  get early(): number {
    return this.#early.size
  }

  /** Task `taskId` arrived: its signal, already aborted when its abort came first. */
  begin(taskId: number): AbortSignal {
    const controller = new AbortController()
    this.#running.set(taskId, controller)
    if (taskId > this.#highest) this.#highest = taskId
    if (this.#early.size > 0 && this.#early.delete(taskId)) controller.abort()
    return controller.signal
  }

  /** Task `taskId` ended (answered, or failed). */
  end(taskId: number): void {
    this.#running.delete(taskId)
  }

  /** The main thread aborted task `taskId`: its signal fires now, or when it arrives; a late one is dropped. */
  abort(taskId: number): void {
    const controller = this.#running.get(taskId)
    if (controller) controller.abort()
    else if (taskId > this.#highest) this.#early.add(taskId)
  }
}
