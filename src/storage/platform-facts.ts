/**
 * @module storage/platform-facts
 * Small facts about the platform that the gateway learns at run time and every session shares (the web client
 * version the platform accepts now), kept across restarts so that a start without network still uses the last one
 * learned. Not secret and not per session: stored in the clear beside the store's own markers, in lmdb's `meta`
 * sub-database (`platform:<name>`).
 */
import type { Database } from 'lmdb'
import type { PlatformFacts } from './types.js'

/** The name a fact is stored under, by every engine (Redis' is cluster/store/platform-facts.ts). */
export const platformFactField = (name: string): string => `platform:${name}`

export function lmdbPlatformFacts(meta: Database<Buffer, string>): PlatformFacts {
  return {
    async read(name) {
      return meta.get(platformFactField(name))?.toString()
    },
    async write(name, value) {
      await meta.put(platformFactField(name), Buffer.from(value))
    },
  }
}
