/**
 * @module cluster/store/lease-deadline
 * When a node must consider a lease lost, on the monotonic clock (never the wall clock: NTP steps and suspended
 * VMs would move it). A renewal that succeeded proves only that Redis held the lease when the command was SENT
 * (the reply may arrive late), so the deadline counts from the send time: send time + TTL − margin. Past it, the
 * lease may already have expired in Redis and another node may own the session: the holder stops writing and
 * closes its link before that can happen.
 *
 * @example
 * const d = new LeaseDeadline(15_000, 3_000)
 * const sentAt = d.now(); if (await renew()) d.renewed(sentAt)
 * d.passed() // true once 12 s went by since the last successful renewal's send
 */
import { performance } from 'node:perf_hooks'

/** The safety margin for a TTL: 3 s, or a fifth of a short TTL (test set-ups run 3 s leases). */
export const leaseMargin = (ttlMs: number): number => Math.min(3_000, Math.floor(ttlMs / 5))

export class LeaseDeadline {
  readonly #ttlMs: number
  readonly #marginMs: number
  readonly now: () => number
  #deadline: number

  /** Starts expired: call `renewed(sentAt)` with the send time of the acquisition. */
  constructor(ttlMs: number, marginMs = leaseMargin(ttlMs), now: () => number = () => performance.now()) {
    this.#ttlMs = ttlMs
    this.#marginMs = marginMs
    this.now = now
    this.#deadline = -Infinity
  }

  /** A renewal (or acquisition) sent at `sentAt` (this.now() before sending) succeeded. */
  renewed(sentAt: number): void {
    this.#deadline = Math.max(this.#deadline, sentAt + this.#ttlMs - this.#marginMs)
  }

  /** Milliseconds left before the holder must stop (≤ 0: passed). */
  remaining(): number {
    return this.#deadline - this.now()
  }

  passed(): boolean {
    return this.remaining() <= 0
  }
}
