/**
 * @module http/answers/answer-budget
 * The process's budget of answer bytes waiting for their clients (ANSWER_BYTES_PER_PROCESS): bytes an answer has
 * written that its socket has not yet handed to the kernel, because the client reads slowly or not at all. Each
 * answer sent through `sendJson` counts what is still waiting once it is written in full, until its response closes
 * (drained, or cut by the write time-out: src/http/connections). Past the budget, the requests whose answer size
 * the platform's data decides (the reads of groups and channels) are refused with 503 ANSWERS_BACKLOGGED before
 * they run; every other answer is a few hundred bytes and keeps being served, so GET /session, /healthz and
 * /readyz answer the neighbours of a slow reader as before.
 *
 * @example
 * const budget = new AnswerBudget(64 * 1024 * 1024)
 * budget.admit() // throws 503 ANSWERS_BACKLOGGED when 64 MiB wait
 * res.end(body); budget.hold(res)
 */
import type { ServerResponse } from 'node:http'
import { GatewayError } from '../../protocol/errors.js'

export class AnswerBudget {
  #waiting = 0
  #refused = 0
  /** The last large answer's turn to be written (inTurn). */
  #turn: Promise<void> = Promise.resolve()

  constructor(readonly maxBytes: number) {}

  /** Bytes of answers written and not yet drained, all answers together. */
  get waitingBytes(): number {
    return this.#waiting
  }

  /** Requests refused because of the budget, since start. */
  get refused(): number {
    return this.#refused
  }

  /** Throws 503 ANSWERS_BACKLOGGED when the bytes waiting have reached the budget. */
  admit(): void {
    if (this.#waiting < this.maxBytes) return
    this.#refused++
    throw new GatewayError('ANSWERS_BACKLOGGED')
  }

  /**
   * Runs `build` once every build handed here before it has ended: large answers are written one at a time (and
   * built, when their session's thread did not), each after the one before was written and counted. A failed build
   * ends its turn like any other.
   */
  inTurn(build: () => Promise<void>): Promise<void> {
    const turn = this.#turn.then(build)
    this.#turn = turn.catch(() => {})
    return turn
  }

  /** Counts what `res` (written in full) still has waiting for its socket, until the response closes. */
  hold(res: ServerResponse): void {
    const bytes = res.writableLength
    if (bytes === 0) return // all handed to the kernel already: nothing waits in the process
    this.#waiting += bytes
    res.once('close', () => {
      this.#waiting -= bytes
    })
  }
}
