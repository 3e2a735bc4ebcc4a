/**
 * @module actors/session/typing
 * The typing indicator lasts TYPING_MS (spec: 5 seconds), then the actor sends 'paused'. One timer per
 * destination: a new POST /typing to the same chat restarts it. All timers go when the link closes.
 */
import type { TypingDestination } from '../../protocol/spec-types.js'

const keyOf = (d: TypingDestination): string => (d.kind === 'phone' ? `phone:${d.phone}` : `group:${d.jid}`)

export class TypingTimers {
  readonly #timers = new Map<string, NodeJS.Timeout>()
  readonly #ms: number
  readonly #onExpire: (destination: TypingDestination) => void

  constructor(ms: number, onExpire: (destination: TypingDestination) => void) {
    this.#ms = ms
    this.#onExpire = onExpire
  }

  /** (Re)starts the pause timer of a destination. */
  start(destination: TypingDestination): void {
    const key = keyOf(destination)
    clearTimeout(this.#timers.get(key))
    this.#timers.set(
      key,
      setTimeout(() => {
        this.#timers.delete(key)
        this.#onExpire(destination)
      }, this.#ms),
    )
  }

  clear(): void {
    for (const t of this.#timers.values()) clearTimeout(t)
    this.#timers.clear()
  }
}
