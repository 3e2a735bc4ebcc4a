/**
 * @module cluster/local-sessions
 * Cluster mode: the sessions this node runs, as the ownership loop (ownership.ts) sees them, kept on the session
 * system's parts (actors/main/session-mode.ts `ModeParts`). In cluster mode the session system starts no session by
 * itself: the loop adopts the ones that belong here and releases the others. A session on the move is never a 404
 * or a 500 "not connected", which would tell its client something is wrong with the session:
 *   - leaving: being handed to another node, from the moment the release begins until the session is gone here:
 *     its requests answer 503 SESSION_MOVING here (a node that forwarded one asks again where the session is, and
 *     the front of this node waits for it too: cluster/front.ts);
 *   - arriving: adopted here until its link opens (or it shows a QR, or fails: its state then says so), at most
 *     ARRIVAL_MAX_MS: its requests wait for that (`ready`), then run.
 */
import { GatewayError } from '../protocol/errors.js'
import type { ModeParts } from '../actors/main/session-mode.js'

/** What cluster mode's ownership loop (ownership.ts) asks of this node's sessions. */
export interface LocalSessions {
  /** Sessions running here (adopted or created here, not being released). */
  localIds(): string[]
  /** Whether `id` runs here (being released included). */
  hosts(id: string): boolean
  /** Whether `id` is being handed to another node: its requests wait for it there (cluster/front.ts). */
  leaving(id: string): boolean
  /**
   * Whether a session may be handed over for balance: not while it shows a QR (moving it would change the QR
   * under the phone scanning it; an unpaired session lives minutes at most).
   */
  movable(id: string): boolean
  /** Sessions running here that are still connecting (a bound on how many start at once). */
  connecting(): number
  /** Starts a registered session here; false when it does not exist (any more) or runs here already. */
  adopt(id: string): Promise<boolean>
  /**
   * Stops a session here without logging out and keeps its data, for another node to run it: new requests get
   * 503 SESSION_MOVING, the ones admitted before finish, the link closes, the lease is released.
   */
  release(id: string): Promise<void>
}

/** How long an adopted session answers 503 "moving" at most while its link opens. */
const ARRIVAL_MAX_MS = 15_000

/** How long a session handed to another node waits for its admitted commands to finish. */
const RELEASE_DRAIN_MS = 10_000

export type LocalSessionParts = Pick<
  ModeParts,
  'cache' | 'store' | 'pending' | 'snapshotFromStore' | 'startActor' | 'releaseActor' | 'isClosing'
>

export interface LocalSessionsOnMain extends LocalSessions {
  /** Resolves once `id` may run a command here: at once, or when its arrival ends; SESSION_MOVING when leaving. */
  ready(id: string): Promise<void>
  /** Whether `id` is arriving or leaving: a snapshot dropped now is a move, not a deletion (session-changes.ts). */
  isMoving(id: string): boolean
}

interface Arrival {
  timer: NodeJS.Timeout
  waiters: Array<() => void>
}

export function localSessions(parts: LocalSessionParts): LocalSessionsOnMain {
  const { cache, store, isClosing } = parts
  const leaving = new Set<string>()
  const arriving = new Map<string, Arrival>()
  const arrived = (id: string) => {
    const arrival = arriving.get(id)
    if (!arrival) return
    clearTimeout(arrival.timer)
    arriving.delete(id)
    for (const wake of arrival.waiters) wake()
  }
  cache.onChange(event => {
    if (event.type === 'deleted') arrived(event.id)
    else if (event.snapshot.state !== 'connecting') arrived(event.snapshot.id)
  })
  const localIds = (): string[] => [...cache.ids()].filter(id => !leaving.has(id))

  async function adopt(id: string): Promise<boolean> {
    if (isClosing() || cache.has(id)) return false
    const record = await store.getSession(id)
    if (!record || cache.has(id)) return false
    const snapshot = await parts.snapshotFromStore(record)
    if (isClosing() || cache.has(id)) return false
    cache.add(record.secretHash, snapshot)
    if (record.qrDeadline === null)
      arriving.set(id, { timer: setTimeout(() => arrived(id), ARRIVAL_MAX_MS).unref(), waiters: [] })
    try {
      await parts.startActor(id)
    } catch (err) {
      arrived(id)
      cache.remove(id)
      throw err
    }
    return true
  }

  async function release(id: string): Promise<void> {
    if (!cache.has(id) || leaving.has(id)) return
    leaving.add(id)
    try {
      // New requests get 503 from now on; the ones admitted before finish first (a send keeps its 200).
      for (const end = Date.now() + RELEASE_DRAIN_MS; parts.pending(id) > 0 && Date.now() < end; )
        await new Promise(resolve => setTimeout(resolve, 20))
      await parts.releaseActor(id)
    } finally {
      cache.remove(id)
      leaving.delete(id)
    }
  }

  return {
    localIds,
    hosts: id => cache.has(id),
    movable: id => {
      const snapshot = cache.snapshotOf(id)
      return snapshot !== undefined && snapshot.qrDeadline === null
    },
    connecting: () => localIds().filter(id => cache.snapshotOf(id)?.state === 'connecting').length,
    adopt,
    release,
    leaving: id => leaving.has(id),
    isMoving: id => leaving.has(id) || arriving.has(id),
    async ready(id) {
      if (leaving.has(id)) throw new GatewayError('SESSION_MOVING')
      const arrival = arriving.get(id)
      if (arrival) await new Promise<void>(resolve => arrival.waiters.push(resolve))
      if (leaving.has(id)) throw new GatewayError('SESSION_MOVING')
    },
  }
}
