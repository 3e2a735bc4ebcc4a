/**
 * @module actors/main/snapshot-cache
 * What the main thread knows of every session: id → { hash of the secret, latest snapshot }. Fed by the actors'
 * `SnapshotEvent`s on the system's events BroadcastChannel; GET /session is answered from here with no thread hop.
 * A snapshot older than the cached one (by version) is ignored, and so is one for an id the cache does not know
 * (it was deleted, or never registered): without the secret's hash it could not be served anyway.
 */
import { restrictionKinds } from '../../protocol/restrictions.js'
import { BroadcastChannel } from 'node:worker_threads'
import type { SessionSnapshot } from '../../protocol/snapshot.js'
import type { SessionRecord } from '../../storage/types.js'
import { hashSecret, newSessionIds, secretMatchesHashBytes } from './ids.js'
import { eventsChannel, type SnapshotEvent } from '../../protocol/thread.js'

/** Checked against when the id is unknown, so an unknown id costs the same hash and compare as a known one. */
const DECOY_HASH = Buffer.from(hashSecret(newSessionIds().sessionId), 'hex')

/** How long past its QR deadline an unscanned session may still show, waiting for its actor to delete it. */
const DEADLINE_SLACK_MS = 10_000

interface Entry {
  /** The secret's hash as bytes: decoded once, not on every request. */
  secretHash: Buffer
  snapshot: SessionSnapshot
}

export class SnapshotCache {
  readonly #entries = new Map<string, Entry>()
  readonly #channel: BroadcastChannel
  readonly #matches: typeof secretMatchesHashBytes
  readonly #listeners: ((event: SnapshotEvent) => void)[] = []

  /** `matches` is the secret check (tests count its calls). */
  constructor(channelName: string, matches: typeof secretMatchesHashBytes = secretMatchesHashBytes) {
    this.#matches = matches
    this.#channel = new BroadcastChannel(eventsChannel(channelName))
    this.#channel.onmessage = (event: unknown) => this.apply((event as MessageEvent<SnapshotEvent>).data)
    // The HTTP server keeps the process alive; the cache must not.
    this.#channel.unref()
  }

  get size(): number {
    return this.#entries.size
  }

  /** Registers a session the main thread knows the secret hash of (created here, or loaded from the registry). */
  add(secretHash: string, snapshot: SessionSnapshot): void {
    this.#entries.set(snapshot.id, { secretHash: Buffer.from(secretHash, 'hex'), snapshot })
  }

  /** The ids of every session held. */
  ids(): IterableIterator<string> {
    return this.#entries.keys()
  }

  has(id: string): boolean {
    return this.#entries.has(id)
  }

  /** The latest snapshot of a session, without authentication: for the system's own bookkeeping only. */
  snapshotOf(id: string): SessionSnapshot | undefined {
    return this.#entries.get(id)?.snapshot
  }

  remove(id: string): void {
    this.#entries.delete(id)
    this.#notify({ type: 'deleted', id })
  }

  /** Calls `listener` with every snapshot the cache takes and every session it drops (view tokens follow them). */
  onChange(listener: (event: SnapshotEvent) => void): void {
    this.#listeners.push(listener)
  }

  #notify(event: SnapshotEvent): void {
    for (const listener of this.#listeners) listener(event)
  }

  /**
   * The thread hosting `inShard` sessions died: their platform sockets died with it. Connected ones show as
   * reconnecting (isConnected false, no name) until the replacement thread publishes their restored state; the
   * version bump is the smallest, so any snapshot from the new thread wins. Listeners hear of it like of any
   * snapshot (a client waiting on GET /session sees the drop).
   */
  markDisconnected(inShard: (id: string) => boolean): void {
    for (const [id, entry] of this.#entries) {
      const s = entry.snapshot
      if (!inShard(id) || !s.isConnected) continue
      entry.snapshot = { ...s, isConnected: false, name: '', state: 'reconnecting', version: s.version + 1 }
      this.#notify({ type: 'snapshot', snapshot: entry.snapshot })
    }
  }

  apply(event: SnapshotEvent): void {
    if (event.type === 'deleted') {
      this.#entries.delete(event.id)
      this.#notify(event)
      return
    }
    const entry = this.#entries.get(event.snapshot.id)
    if (!entry || event.snapshot.version <= entry.snapshot.version) return
    entry.snapshot = event.snapshot
    this.#notify(event)
  }

  /**
   * The snapshot when `secret` is the session's; undefined for an unknown id and for a wrong secret alike.
   * The actor deletes an unscanned session at its QR deadline; should its thread be unable to (crashed, stuck),
   * the session still disappears here shortly after the deadline, as the spec promises.
   */
  authenticate(id: string, secret: string, now = Date.now()): SessionSnapshot | undefined {
    const entry = this.#entries.get(id)
    // no early return for an unknown id: its answer takes as long as a wrong secret's (no timing oracle on ids)
    const matches = this.#matches(entry?.secretHash ?? DECOY_HASH, secret)
    if (!entry || !matches) return undefined
    const deadline = entry.snapshot.qrDeadline
    if (deadline !== null && now > deadline + DEADLINE_SLACK_MS) return undefined
    return entry.snapshot
  }

  /** How many sessions are in each state (for the metrics). */
  countByState(): Record<string, number> {
    const counts: Record<string, number> = {}
    for (const { snapshot } of this.#entries.values()) counts[snapshot.state] = (counts[snapshot.state] ?? 0) + 1
    return counts
  }

  /** How many sessions the platform restricts, by kind (for the metrics). */
  countRestricted(now = Date.now()): Record<string, number> {
    const counts: Record<string, number> = {}
    for (const { snapshot } of this.#entries.values()) {
      if (!snapshot.isConnected || !snapshot.restrictions) continue
      for (const kind of restrictionKinds(snapshot.restrictions, now)) counts[kind] = (counts[kind] ?? 0) + 1
    }
    return counts
  }

  close(): void {
    this.#channel.close()
  }
}

/** The snapshot GET /session shows before the actor published anything. */
export function initialSnapshot(record: SessionRecord, generatedId = ''): SessionSnapshot {
  return {
    id: record.id,
    state: record.qrDeadline === null ? 'connecting' : 'awaiting-qr',
    generatedId,
    name: '',
    isConnected: false,
    qrcode: '',
    picture: '',
    qrDeadline: record.qrDeadline,
    pairingCode: null,
    version: 0,
  }
}
