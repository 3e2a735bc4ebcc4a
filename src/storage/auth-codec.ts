/**
 * @module storage/auth-codec
 * How Baileys credentials and Signal keys become strings and back. Baileys' own `BufferJSON` replacer/reviver keeps
 * Buffers and Uint8Arrays intact through JSON; app-state sync keys must be revived as protobuf objects (as
 * `useMultiFileAuthState` does), or Baileys' app-state decoding fails on them later.
 */
import { BufferJSON, proto, type AuthenticationCreds } from '@whiskeysockets/baileys'

export const encodeValue = (value: unknown): string => JSON.stringify(value, BufferJSON.replacer)

export function decodeKey(type: string, text: string): unknown {
  const value: unknown = JSON.parse(text, BufferJSON.reviver)
  if (type === 'app-state-sync-key' && value) {
    return proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>)
  }
  return value
}

export const decodeCreds = (text: string): AuthenticationCreds =>
  JSON.parse(text, BufferJSON.reviver) as AuthenticationCreds
