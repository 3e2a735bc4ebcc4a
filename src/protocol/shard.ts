/**
 * @module protocol/shard
 * Which worker thread owns a session: `hash(id) mod K`, fixed for the life of the process (and across restarts,
 * as long as SHARDS does not change: a replacement thread restores exactly the sessions this function gives it).
 */
import { hash } from 'node:crypto'

export function shardOf(id: string, shards: number): number {
  // one-shot `hash` (the same digest as createHash, ~3x cheaper): this runs for every request routed to a shard
  return hash('sha256', id, 'buffer').readUInt32BE(0) % shards
}
