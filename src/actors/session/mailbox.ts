/**
 * @module actors/session/mailbox
 * A session actor's mailbox: jobs run one at a time, in the order they were posted. A failing job does not stop
 * the ones behind it. Queries of the session's snapshot never come through here (the main thread answers them).
 *
 * @example
 * const box = new Mailbox()
 * const a = box.post(() => send(1)) // runs first
 * const b = box.post(() => send(2)) // starts only after `a` settled
 */
export class Mailbox {
  #tail: Promise<unknown> = Promise.resolve()
  #size = 0

  /** Jobs waiting or running. */
  get size(): number {
    return this.#size
  }

  post<T>(job: () => Promise<T>): Promise<T> {
    this.#size++
    const result = this.#tail.then(job).finally(() => {
      this.#size--
    })
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }
}
