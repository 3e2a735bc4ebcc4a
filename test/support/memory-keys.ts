/**
 * @module test/support/memory-keys
 * Baileys' Signal key store in plain maps, one a key type: no codec, no file, no copy, so that what a client on it
 * costs is Baileys' own (bench/bare/client.ts) and a test's client starts from nothing (system/baileys-client.ts).
 *
 * Why only type imports: bench/bare/client.ts loads this file by its path on Node (type stripping) and on Bun, which
 * resolve no project import and no `.js` name for a `.ts` file.
 */
import type { SignalDataTypeMap, SignalKeyStore } from '@whiskeysockets/baileys'

export function memoryKeys(): SignalKeyStore {
  const store = new Map<string, Map<string, unknown>>()
  return {
    get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
      const bucket = store.get(type)
      const out: { [id: string]: SignalDataTypeMap[T] } = {}
      for (const id of ids) {
        const value = bucket?.get(id)
        if (value !== undefined) out[id] = value as SignalDataTypeMap[T]
      }
      return out
    },
    set: async data => {
      for (const [type, entries] of Object.entries(data)) {
        let bucket = store.get(type)
        if (!bucket) store.set(type, (bucket = new Map()))
        for (const [id, value] of Object.entries(entries ?? {})) {
          if (value === null || value === undefined) bucket.delete(id)
          else bucket.set(id, value)
        }
      }
    },
  }
}
