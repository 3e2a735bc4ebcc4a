/**
 * @module cluster/store/leased-runs
 * Cluster mode on a shard thread: a session's links run only under its lease. Wraps the platform the shard's
 * actors use (`ShardPlatform`, as actors/worker/shard-store.ts offers it) so that, without touching the actors:
 *   - before each link opens (the session run's `authForLink`), the thread acquires the session's lease (or renews
 *     the one it holds); a lease held by another node fails the open, and the actor retries after its backoff;
 *   - when the keeper reports the lease lost (renewal refused, deadline passed, a write fenced), the session's
 *     link is closed WITHOUT logging out, and its close is reported as a lost connection, so the actor tries again
 *     later, which needs the lease again;
 *   - a clean stop (the session run's `release`) releases the lease after the run marker is written.
 */
import type { Logger } from 'pino'
import type { LinkOptions } from '../../platform/link.js'
import type { ShardPlatform } from '../../actors/worker/shard-store.js'
import type { LeaseKeeper } from './lease.js'
import { FencedWriteError } from './fencing.js'

export function withLeases(
  load: () => Promise<ShardPlatform>,
  keeper: LeaseKeeper,
  logger: Logger,
): () => Promise<ShardPlatform> {
  let pending: Promise<ShardPlatform> | undefined
  return () => (pending ??= load().then(platform => leased(platform, keeper, logger)))
}

function leased(platform: ShardPlatform, keeper: LeaseKeeper, logger: Logger): ShardPlatform {
  return {
    ...platform,
    createSessionRun(id, auth, log) {
      const inner = platform.createSessionRun(id, auth, log)
      return {
        async authForLink() {
          await keeper.acquire(id)
          return inner.authForLink()
        },
        async release() {
          try {
            await inner.release()
          } catch (err) {
            // the lease moved while this node was cut off: the new owner's state is not this node's to mark clean
            if (!(err instanceof FencedWriteError)) throw err
            log.info({ reason: err.reason }, "clean stop not recorded: the lease is no longer this node's")
          } finally {
            await keeper.release(id)
          }
        },
        async claim() {
          await keeper.acquire(id)
        },
        async abandon() {
          try {
            await inner.abandon?.()
          } finally {
            // a write still in flight after this is refused: the lease no longer names this node
            await keeper.release(id)
          }
        },
      }
    },
    createLink(options: LinkOptions) {
      let lost = false
      let stopListening = () => undefined as unknown
      const link = platform.createLink({
        ...options,
        // under every write of the link: nothing goes out once the lease may have moved (write-gate.ts)
        mayWrite: () => keeper.holds(options.id),
        events: {
          ...options.events,
          close(reason, detail) {
            stopListening()
            // our own close after a lost lease is a lost connection to the actor: it retries, under a lease again
            if (lost && reason === 'closed-by-us')
              options.events.close('connection-lost', "the session's lease was lost")
            else options.events.close(reason, detail)
          },
        },
      })
      stopListening = keeper.onLost(id => {
        if (id !== options.id || lost) return
        lost = true
        stopListening()
        logger
          .child({ session: id })
          .warn('lease lost: closing the link (no logout); it reopens only under the lease again')
        void link.close().catch(() => undefined)
      })
      return link
    },
  }
}
