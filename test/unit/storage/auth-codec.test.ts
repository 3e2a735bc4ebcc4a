/**
 * @module test/unit/storage/auth-codec
 * The store's own JSON codec for credentials and Signal keys writes exactly what Baileys' BufferJSON writes and
 * reads back what it reads, so a DATA_DIR written by an older gateway (which used BufferJSON) opens unchanged and
 * a newer one's files stay readable by Baileys' own helpers.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BufferJSON, initAuthCreds, proto } from '@whiskeysockets/baileys'
import { bufferReplacer, bufferReviver, decodeCreds, decodeKey, encodeValue } from '../../../src/storage/auth-codec.js'

const bytes = fc.uint8Array({ maxLength: 64 })
/** JSON-ish values with Buffers and Uint8Arrays inside, the shapes creds and keys take. */
const value = fc.letrec(tie => ({
  leaf: fc.oneof(
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    bytes.map(b => Buffer.from(b)),
    bytes,
    fc.dictionary(fc.integer({ min: 0, max: 40 }).map(String), fc.integer({ min: 0, max: 255 }), { minKeys: 1 }),
  ),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('node'), { maxKeys: 4 }),
  ),
})).node

describe('auth codec', () => {
  it("encodes every value to the same text as Baileys' BufferJSON", () => {
    fc.assert(
      fc.property(value, v => {
        expect(encodeValue(v)).toBe(JSON.stringify(v, BufferJSON.replacer))
      }),
      { numRuns: 500 },
    )
  })

  it("decodes every text to the same value as Baileys' BufferJSON", () => {
    fc.assert(
      fc.property(value, v => {
        const text = JSON.stringify(v, BufferJSON.replacer)
        expect(JSON.parse(text, bufferReviver)).toEqual(JSON.parse(text, BufferJSON.reviver))
        // and a plain JSON text with Uint8Arrays as index objects, as a hand-written file has them
        const plain = JSON.stringify(v)
        expect(JSON.parse(plain, bufferReviver)).toEqual(JSON.parse(plain, BufferJSON.reviver))
      }),
      { numRuns: 500 },
    )
  })

  it('round-trips fresh credentials with their key pairs as Buffers', () => {
    const creds = initAuthCreds()
    const back = decodeCreds(encodeValue(creds))
    expect(Buffer.isBuffer(back.noiseKey.private)).toBe(true)
    expect(back).toEqual(JSON.parse(JSON.stringify(creds, BufferJSON.replacer), BufferJSON.reviver))
    expect(JSON.stringify(creds, bufferReplacer)).toBe(JSON.stringify(creds, BufferJSON.replacer))
  })

  it('revives app-state sync keys as the protobuf type Baileys decodes app state with', () => {
    const key = proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from([9, 9]), timestamp: 1700000000 })
    const back = decodeKey('app-state-sync-key', encodeValue(key))
    expect(back).toBeInstanceOf(proto.Message.AppStateSyncKeyData)
    expect(proto.Message.AppStateSyncKeyData.toObject(back as proto.Message.AppStateSyncKeyData)).toEqual(
      proto.Message.AppStateSyncKeyData.toObject(key),
    )
    // other key types stay plain objects
    expect(decodeKey('pre-key', encodeValue({ public: Buffer.from([1]) }))).toEqual({ public: Buffer.from([1]) })
  })
})
