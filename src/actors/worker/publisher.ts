/**
 * @module actors/worker/publisher
 * Posts an actor's snapshots and deletions on the system's events BroadcastChannel. Versions are
 * `max(last + 1, Date.now() * 1000)`: monotonic within a thread, and a replacement thread (started later) starts
 * above anything its dead predecessor posted, so the main cache can drop stale snapshots by version alone.
 */
import { BroadcastChannel } from 'node:worker_threads'
import type { SessionSnapshot } from '../../protocol/snapshot.js'
import { eventsChannel, type SnapshotEvent } from '../../protocol/thread.js'

export class SnapshotPublisher {
  readonly #channel: BroadcastChannel
  #last = 0

  constructor(channelName: string) {
    this.#channel = new BroadcastChannel(eventsChannel(channelName))
  }

  nextVersion(): number {
    this.#last = Math.max(this.#last + 1, Date.now() * 1000)
    return this.#last
  }

  snapshot(snapshot: Omit<SessionSnapshot, 'version'>): void {
    this.#post({ type: 'snapshot', snapshot: { ...snapshot, version: this.nextVersion() } })
  }

  deleted(id: string): void {
    this.#post({ type: 'deleted', id })
  }

  close(): void {
    this.#channel.close()
  }

  #post(event: SnapshotEvent): void {
    this.#channel.postMessage(event)
  }
}
