/**
 * @module test/support/fakes/memory-stores
 * In-memory AuthStore / ContactStore for link tests. Creds and keys round-trip through BufferJSON like a real
 * store, so a second link built on the same stores sees exactly what the first persisted.
 */
import { BufferJSON, proto, type AuthenticationCreds, type SignalDataTypeMap } from '@whiskeysockets/baileys'
import type { AuthStore, ContactStore, StoredContact } from '../../../src/storage/types.js'

export function memoryAuthStore(): AuthStore & { hasCreds(): boolean } {
  let creds: string | undefined
  const keys = new Map<string, string>()
  return {
    hasCreds: () => creds !== undefined,
    readCreds: async () => (creds ? (JSON.parse(creds, BufferJSON.reviver) as AuthenticationCreds) : undefined),
    writeCreds: async c => {
      creds = JSON.stringify(c, BufferJSON.replacer)
    },
    keys: {
      get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
        const out: { [id: string]: SignalDataTypeMap[T] } = {}
        for (const id of ids) {
          const v = keys.get(`${type}/${id}`)
          if (!v) continue
          const value = JSON.parse(v, BufferJSON.reviver) as Record<string, unknown>
          // as every real store must (see src/storage/auth-codec.ts): app-state keys go back through the proto type
          out[id] = (
            type === 'app-state-sync-key' ? proto.Message.AppStateSyncKeyData.fromObject(value) : value
          ) as SignalDataTypeMap[T]
        }
        return out
      },
      set: async data => {
        for (const [type, entries] of Object.entries(data)) {
          for (const [id, v] of Object.entries(entries ?? {})) {
            if (v === null || v === undefined) keys.delete(`${type}/${id}`)
            else keys.set(`${type}/${id}`, JSON.stringify(v, BufferJSON.replacer))
          }
        }
      },
    },
    clear: async () => {
      creds = undefined
      keys.clear()
    },
  }
}

export function memoryContactStore(): ContactStore & { rows: StoredContact[] } {
  const rows: StoredContact[] = []
  return {
    rows,
    all: async () => rows,
    upsert: async list => {
      for (const c of list) {
        const i = rows.findIndex(r => r.id === c.id)
        if (i >= 0) rows[i] = c
        else rows.push(c)
      }
    },
    clear: async () => {
      rows.length = 0
    },
  }
}
