/**
 * @module actors/main/session-changes
 * Who hears of a session's change on the main thread, in this order: its view tokens first (a session that paired
 * ends them, one that is gone revokes them), then the session system's watchers (`SessionSystem.watch`, the waiting
 * GET /session), which then already see the tokens as they now are. A session the cache drops because it is leaving
 * for another node (cluster mode: `isMoving` during its release) is `moved`, not `changed`: its state did not
 * change, and whoever waits on it here should ask again, wherever it runs now.
 */
import type { SessionChange } from './session-system.js'
import type { SnapshotCache } from './snapshot-cache.js'
import type { ViewTokens } from './view-tokens.js'

export interface SessionChanges {
  watch(listener: (change: SessionChange) => void): void
  /** Shutdown began: every watcher hears `closing`, once. */
  close(): void
}

export function sessionChanges(
  cache: SnapshotCache,
  viewTokens: ViewTokens,
  isMoving: (id: string) => boolean,
): SessionChanges {
  const listeners: ((change: SessionChange) => void)[] = []
  const tell = (change: SessionChange) => {
    for (const listener of listeners) listener(change)
  }
  cache.onChange(event => {
    if (event.type === 'deleted') viewTokens.revoke(event.id)
    else viewTokens.observe(event.snapshot)
    const id = event.type === 'deleted' ? event.id : event.snapshot.id
    tell({ type: event.type === 'deleted' && isMoving(id) ? 'moved' : 'changed', id })
  })
  let closed = false
  return {
    watch: listener => {
      listeners.push(listener)
    },
    close: () => {
      if (closed) return
      closed = true
      tell({ type: 'closing' })
    },
  }
}
