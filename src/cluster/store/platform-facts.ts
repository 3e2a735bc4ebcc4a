/**
 * @module cluster/store/platform-facts
 * The platform facts every node shares (storage/platform-facts.ts) in Redis: fields `platform:<name>` of the
 * `gw:meta` hash, named as lmdb names them.
 */
import type { RedisConnection } from './connection.js'
import { platformFactField as field } from '../../storage/platform-facts.js'
import type { PlatformFacts } from '../../storage/types.js'

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
