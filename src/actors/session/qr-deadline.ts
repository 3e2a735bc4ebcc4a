/**
 * @module actors/session/qr-deadline
 * The timer that fires when an unpaired session's QR deadline passes. It only says "the deadline may have
 * passed": the lifecycle re-checks the record in its mailbox, since a reset may have moved the deadline meanwhile.
 */
export class QrDeadlineTimer {
  #timer: NodeJS.Timeout | undefined
  readonly #onDue: () => void

  constructor(onDue: () => void) {
    this.#onDue = onDue
  }

  /** (Re)arms the timer for epoch ms `at`; a deadline already past fires on the next tick. */
  arm(at: number): void {
    this.clear()
    this.#timer = setTimeout(this.#onDue, Math.max(0, at - Date.now()))
  }

  clear(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
  }
}
