/**
 * @module parent-watch
 * A process started with an IPC channel (`npm run demo` starts the gateway and the sandbox so) stops when its
 * parent is gone, however the parent ended, `kill -9` included: the channel closing is the one sign that reaches
 * it, and a gateway or sandbox left behind would hold its port and answer the next demo. Started without a channel,
 * as an operator runs it, nothing changes. Imported first thing, so that a parent gone during the start is seen.
 */

/** Until the process says how it stops, a parent gone means exit at once: during the start there is nothing to
 * drain or save. */
let onParentGone: () => void = () => process.exit(0)

/** From now on, a parent gone stops the process with `stop` (as SIGTERM would). */
export function whenParentGone(stop: () => void): void {
  onParentGone = stop
}

if (process.channel) {
  process.channel.unref() // the channel is a watch, not a reason to keep running
  process.once('disconnect', () => onParentGone())
}
