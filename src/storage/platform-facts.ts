/**
 * @module storage/platform-facts
 * Small facts about the platform that the gateway learns at run time and every session shares (the web client
 * version the platform accepts now), kept across restarts so that a start without network still uses the last one
 * learned. Not secret and not per session: stored in the clear beside the store's own markers, in lmdb's `meta`
 * sub-database (`platform:<name>`) or in Redis' `gw:meta` hash (field `platform:<name>`).
 */
import type { Database } from 'lmdb'
import type { RedisConnection } from './redis/connection.js'
import type { PlatformFacts } from './types.js'

const field = (name: string): string => `platform:${name}`

export function lmdbPlatformFacts(meta: Database<Buffer, string>): PlatformFacts {
  return {
    async read(name) {
      return meta.get(field(name))?.toString()
    },
    async write(name, value) {
      await meta.put(field(name), Buffer.from(value))
    },
  }
}

export function redisPlatformFacts(ready: Promise<RedisConnection>, metaKey: string): PlatformFacts {
  return {
    async read(name) {
      const value = await (await ready).command(['HGET', metaKey, field(name)])
      return Buffer.isBuffer(value) ? value.toString() : typeof value === 'string' ? value : undefined
    },
    async write(name, value) {
      await (await ready).command(['HSET', metaKey, field(name), value])
    },
  }
}
