/**
 * @module protocol/shard
 * Which worker thread owns a session: `hash(id) mod K`, fixed for the life of the process (and across restarts,
 * as long as SHARDS does not change: a replacement thread restores exactly the sessions this function gives it).
 */
import { createHash } from 'node:crypto'

export function shardOf(id: string, shards: number): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % shards
}
