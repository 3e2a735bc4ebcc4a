/**
 * A JSON answer in pieces is byte for byte what JSON.stringify makes of it, and a large list is cut into pieces
 * no larger than about one piece each, never one Buffer of the whole body.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonBytesYielding, jsonPieces, jsonPiecesYielding } from '../../../src/protocol/json-pieces.js'

const text = (value: unknown) => Buffer.concat(jsonPieces(value).pieces).toString('utf8')

/** Answer-like values: objects whose members are lists of objects, with the odd undefined, Date and nesting. */
const member = fc.oneof(
  fc.jsonValue(),
  fc.constant(undefined),
  fc.date({ noInvalidDate: true }),
  fc.array(fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.dictionary(fc.string(), fc.jsonValue()))),
)
const answer = fc.oneof(fc.dictionary(fc.string(), member), fc.array(member), fc.jsonValue())

describe('jsonPieces', () => {
  it('writes exactly what JSON.stringify writes, built at once or a piece at a time', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async value => {
        const expected = JSON.stringify(value) ?? 'null'
        for (const { pieces, bytes } of [jsonPieces(value), await jsonPiecesYielding(value)]) {
          expect(Buffer.concat(pieces).toString('utf8')).toBe(expected)
          expect(bytes).toBe(Buffer.byteLength(expected))
        }
      }),
      { numRuns: 300 },
    )
  })

  it('lets the event loop run between the pieces of a large answer, and not for a small one', async () => {
    /** Whether a callback queued just after the build began ran before the build ended. */
    const othersRanDuring = async (value: unknown) => {
      let ran = false
      const built = jsonPiecesYielding(value).then(() => ran)
      setImmediate(() => {
        ran = true
      })
      return built
    }
    const large = { docs: Array.from({ length: 100 }, (_, i) => ({ id: i, text: 'x'.repeat(10_000) })) }
    expect(await othersRanDuring(large)).toBe(true)
    expect(await othersRanDuring({ id: 'a' })).toBe(false)
  })

  it('cuts a large page into pieces of about 64 KiB, with multi-byte text counted in bytes', () => {
    const docs = Array.from({ length: 100 }, (_, i) => ({ id: `ID${i}`, text: 'é✓'.repeat(10_000), image: undefined }))
    const page = { docs, before: 7 }
    const { pieces, bytes } = jsonPieces(page)
    expect(text(page)).toBe(JSON.stringify(page))
    expect(bytes).toBe(Buffer.byteLength(JSON.stringify(page)))
    expect(pieces.length).toBeGreaterThan(10)
    // a piece closes once it holds 64 Ki characters: at most that plus one member (here 20,000 characters, 50 KB)
    for (const piece of pieces) expect(piece.length).toBeLessThan(64 * 1024 * 3 + 60_000)
  })

  it('gives a thread the bytes as one block of their own, never a slice of a shared Buffer pool', async () => {
    for (const value of [{ id: 'a' }, { docs: [{ text: 'é✓'.repeat(40_000) }], before: 3 }]) {
      const bytes = await jsonBytesYielding(value)
      expect(Buffer.from(bytes).toString('utf8')).toBe(JSON.stringify(value))
      // what a transfer moves is the whole ArrayBuffer: it must hold this answer and nothing else
      expect([bytes.byteOffset, bytes.buffer.byteLength]).toEqual([0, bytes.byteLength])
    }
  })
})
