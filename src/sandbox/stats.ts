/**
 * @module sandbox/stats
 * Counters the control API exposes as GET /stats, so tests can prove what the client did on the wire (how many
 * round trips, how many at once) without timing anything. Any part of the sandbox may add its own counter name.
 */

export class SandboxStats {
  readonly #counters = new Map<string, number>()
  readonly #inFlight = new Map<string, number>()
  readonly #tallies = new Map<string, Map<string, number>>()

  /** Adds `by` to a counter (created at 0). */
  bump(name: string, by = 1): void {
    this.#counters.set(name, (this.#counters.get(name) ?? 0) + by)
  }

  /**
   * Marks one `name` operation as started: counts it in `name`, tracks how many run at once and keeps the highest
   * such number as `<name>MaxInFlight`. Call the returned function when the answer has gone out.
   */
  begin(name: string): () => void {
    this.bump(name)
    const now = (this.#inFlight.get(name) ?? 0) + 1
    this.#inFlight.set(name, now)
    const maxName = `${name}MaxInFlight`
    if (now > (this.#counters.get(maxName) ?? 0)) this.#counters.set(maxName, now)
    let done = false
    return () => {
      if (done) return
      done = true
      this.#inFlight.set(name, (this.#inFlight.get(name) ?? 1) - 1)
    }
  }

  /** Counts occurrences of `key` under `name` (e.g. which query ids a client used). */
  tally(name: string, key: string): void {
    const tally = this.#tallies.get(name) ?? new Map<string, number>()
    tally.set(key, (tally.get(key) ?? 0) + 1)
    this.#tallies.set(name, tally)
  }

  /** The GET /stats body: every counter and tally so far; names never used are absent (read them as 0). */
  snapshot(): Record<string, number | Record<string, number>> {
    const out: Record<string, number | Record<string, number>> = Object.fromEntries(this.#counters)
    for (const [name, tally] of this.#tallies) out[name] = Object.fromEntries(tally)
    return out
  }
}
