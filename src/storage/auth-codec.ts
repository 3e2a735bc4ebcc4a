/**
 * @module storage/auth-codec
 * How Baileys credentials and Signal keys become strings and back. The text format is Baileys' `BufferJSON`: a
 * Buffer or Uint8Array is written as `{"type":"Buffer","data":"<base64>"}`, and read back as a Buffer (so is an
 * object whose keys are all numbers and whose values are all numbers, the shape a Uint8Array takes through plain
 * JSON). It is written out here rather than imported because the main thread opens this store too (the session
 * registry), and importing it from Baileys loaded the whole platform client, libsignal and protobuf into the HTTP
 * thread, which never uses them (test/system/ops/lean-threads.test.ts holds it there).
 *
 * App-state sync keys must be revived as protobuf objects (as `useMultiFileAuthState` does), or Baileys' app-state
 * decoding fails on them later. Only the shard threads read those keys; the protobuf module is loaded on the first
 * one, from Baileys' generated WAProto (already loaded in a shard thread by then).
 */
import { createRequire } from 'node:module'
import type { AuthenticationCreds, proto as Proto } from '@whiskeysockets/baileys'

const isBufferShape = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer'

/** JSON.stringify replacer. A Buffer arrives here already through its toJSON (`{type, data: number[]}`). Same
 * output as Baileys' for every input, quirks included (a `data` string is read as UTF-8, as Buffer.from reads it). */
export function bufferReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array || isBufferShape(value)) {
    const source = (value as { data?: unknown }).data || value
    return { type: 'Buffer', data: Buffer.from(source as Uint8Array).toString('base64') }
  }
  return value
}

/** JSON.parse reviver: the inverse of `bufferReplacer`. */
export function bufferReviver(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const record = value as Record<string, unknown>
  if (record.type === 'Buffer' && typeof record.data === 'string') return Buffer.from(record.data, 'base64')
  const keys = Object.keys(record)
  if (keys.length > 0 && keys.every(k => !Number.isNaN(parseInt(k, 10)))) {
    const values = Object.values(record)
    if (values.every(v => typeof v === 'number')) return Buffer.from(values as number[])
  }
  return value
}

type AppStateSyncKeyData = typeof Proto.Message.AppStateSyncKeyData
let appStateSyncKeyData: AppStateSyncKeyData | undefined

/** Baileys' generated protobuf type for app-state sync keys, loaded on first use (require of an ES module: no
 * top-level await in it). */
function appStateKeyType(): AppStateSyncKeyData {
  if (!appStateSyncKeyData) {
    const require = createRequire(import.meta.url)
    const { proto } = require('@whiskeysockets/baileys/WAProto/index.js') as { proto: typeof Proto }
    appStateSyncKeyData = proto.Message.AppStateSyncKeyData
  }
  return appStateSyncKeyData
}

export const encodeValue = (value: unknown): string => JSON.stringify(value, bufferReplacer)

export function decodeKey(type: string, text: string): unknown {
  const value: unknown = JSON.parse(text, bufferReviver)
  if (type === 'app-state-sync-key' && value) {
    return appStateKeyType().fromObject(value as Record<string, unknown>)
  }
  return value
}

export const decodeCreds = (text: string): AuthenticationCreds => JSON.parse(text, bufferReviver) as AuthenticationCreds
