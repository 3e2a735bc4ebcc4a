/**
 * @module protocol/shard
 * Which worker thread owns a stored session: the shard written in its registry row (actors/main/shard-placement.ts
 * chooses it), else `hash(id) mod K`. Both threads read it from the same row, so a replacement thread restores
 * exactly the sessions the main thread routes to it.
 */
import { hash } from 'node:crypto'

export function shardOf(id: string, shards: number): number {
  // one-shot `hash` (the same digest as createHash, ~3x cheaper)
  return hash('sha256', id, 'buffer').readUInt32BE(0) % shards
}

/**
 * The shard a stored session runs on: the one recorded in its row, or, for rows written before shards started as
 * load needed them (or a recorded shard past today's SHARDS), `hash(id) mod SHARDS` as then.
 */
export function shardOfRecord(record: { id: string; shard?: number | undefined }, shards: number): number {
  const { shard } = record
  return shard !== undefined && Number.isInteger(shard) && shard >= 0 && shard < shards
    ? shard
    : shardOf(record.id, shards)
}
