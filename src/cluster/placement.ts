/**
 * @module cluster/placement
 * Where a session belongs: rendezvous (highest-random-weight) hashing of the session id over the nodes that take
 * sessions. Every node computes the same answer from the same list of live nodes, with no coordination and no
 * table to keep: when a node joins, only the sessions that now score highest on it move (about 1/n of them), and
 * when a node leaves or dies, only its own sessions move, spread evenly over the survivors. The lease
 * (cluster/store/lease.ts) keeps ownership exclusive while two nodes briefly see different lists.
 *
 * A new session's id is drawn until its home is the node chosen for it (the least loaded), so POST /session lands
 * where there is room and the session stays there.
 *
 * @example
 * homeOf('a1b2…', ['node-1', 'node-2', 'node-3']) // 'node-2', on every node
 */
import { hash } from 'node:crypto'

/** The score of `id` on `node`: the first 48 bits of sha256(node NUL id). */
function score(node: string, id: string): number {
  return hash('sha256', `${node}\0${id}`, 'buffer').readUIntBE(0, 6)
}

/** The node `id` belongs on among `nodes` (undefined when there is none). Ties (never in practice) go to the lower name. */
export function homeOf(id: string, nodes: readonly string[]): string | undefined {
  let best: string | undefined
  let bestScore = -1
  for (const node of nodes) {
    const s = score(node, id)
    if (s > bestScore || (s === bestScore && best !== undefined && node < best)) {
      best = node
      bestScore = s
    }
  }
  return best
}

/** The node with the fewest sessions (ties: the lower name), among `nodes` that take sessions. */
export function leastLoaded<T extends { node: string; sessions: number }>(nodes: readonly T[]): T | undefined {
  let best: T | undefined
  for (const n of nodes) {
    if (!best || n.sessions < best.sessions || (n.sessions === best.sessions && n.node < best.node)) best = n
  }
  return best
}

/**
 * Draws ids with `draw` until one's home among `nodes` is `node` (expected tries: the number of nodes). Gives up
 * after `maxTries` and returns the last draw: the session then starts where it is created and moves home later.
 */
export function drawIdHomedAt<T extends { id: string }>(
  draw: () => T,
  node: string,
  nodes: readonly string[],
  maxTries = 256,
): T {
  let ids = draw()
  for (let i = 1; i < maxTries && homeOf(ids.id, nodes) !== node; i++) ids = draw()
  return ids
}
