/**
 * Baileys' binary node encoder rewritten to write into one reused buffer (src/platform/baileys/patches/binary-encoder.ts):
 * on the stanzas a gateway sends and on random nodes it gives Baileys' own bytes, byte for byte, without handing
 * the node to Baileys' encoder (its fallback); on every input Baileys refuses it throws Baileys' own error; what it
 * writes decodes back through Baileys' decoder; and a shard-like process that installs the patch inventory writes
 * its frames with it. Baileys in this test runner's process is unpatched (the load hook is never installed here),
 * so its `encodeBinaryNode` is the reference.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type BinaryNode, decodeBinaryNode, encodeBinaryNode } from '@whiskeysockets/baileys'
import * as constants from '@whiskeysockets/baileys/lib/WABinary/constants.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  binaryEncoderPatch,
  binaryEncoderSource,
  binaryNodeEncoder,
  type EncodeBinaryNode,
  type EncodeOptions,
} from '../../../../../src/platform/baileys/patches/binary-encoder.js'
import { patchState } from '../../../../../src/platform/baileys/patches/source-hook.js'
import { anyNode, cipher, STANZAS } from '../../../../support/binary-nodes.js'
import { inFreshProcess } from '../../../../support/fresh-process.js'

const baileys = encodeBinaryNode as EncodeBinaryNode
let fallbacks = 0
const encode = binaryNodeEncoder(constants as unknown as EncodeOptions, (node, opts, buffer) => {
  fallbacks++
  return baileys(node, opts, buffer)
})
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const outcome = (f: () => Buffer) => {
  try {
    return hex(f())
  } catch (err) {
    return `${(err as Error).constructor.name}: ${(err as Error).message}`
  }
}

/** The patched encoder's bytes equal Baileys', and it made them itself. */
function expectSameBytes(node: unknown, label?: string) {
  const before = fallbacks
  const theirs = baileys(node)
  expect(hex(encode(node)), label).toBe(hex(theirs))
  expect(fallbacks - before, `${label}: handed to Baileys' encoder`).toBe(0)
}

describe('binary node encoder patch', () => {
  it('compares with an unpatched Baileys', () => {
    expect(patchState()).toEqual({})
    expect(String(encodeBinaryNode)).toContain('encodeBinaryNodeInner')
  })

  it('rewrites the pinned encode.js, keeping its lines, and leaves any other text alone', () => {
    const source = readFileSync(fileURLToPath(binaryEncoderPatch.url), 'utf8')
    const patched = binaryEncoderSource(source)
    expect(patched).toContain('export const encodeBinaryNode = binaryNodeEncoder(constants, baileysEncodeBinaryNode);')
    expect(patched?.split('\n')).toHaveLength(source.split('\n').length)
    // one changed rule of the encoder (the encoder mirrors all of them) is another text
    expect(binaryEncoderSource(source.replace('pushByte(TAGS.AD_JID);', 'pushByte(TAGS.FB_JID);'))).toBeUndefined()
    expect(binaryEncoderSource(source.replace('buffer = [0]', 'buffer = [2]'))).toBeUndefined()
  })

  it.each(Object.entries(STANZAS))('%s: Baileys’ bytes', (_, stanza) => expectSameBytes(stanza))

  it('random nodes: Baileys’ bytes', () => {
    fc.assert(
      fc.property(anyNode, node => expectSameBytes(node)),
      { numRuns: 1500 },
    )
  })

  it('the edges: byte lengths 2^20 ± 1, lists of 256 and more, 128 attributes, unpacked long strings', () => {
    for (const n of [(1 << 20) - 1, 1 << 20, (1 << 20) + 1])
      expectSameBytes({ tag: 'media', attrs: {}, content: cipher(n) })
    expectSameBytes({ tag: 'text', attrs: {}, content: 'ü'.repeat(1 << 19) })
    for (const n of [255, 256, 300]) {
      const children = Array.from({ length: n }, (_, i) => ({ tag: 'item', attrs: { id: String(i) } }))
      expectSameBytes({ tag: 'list', attrs: {}, content: children })
    }
    const attrs = Object.fromEntries(Array.from({ length: 128 }, (_, i) => [`k${i}`, `v${i}`]))
    expectSameBytes({ tag: 'many', attrs, content: 'x' })
    expectSameBytes({ tag: 'many', attrs: 'abc' as unknown as Record<string, string> })
    expectSameBytes({
      tag: 'x',
      attrs: { a: '1'.repeat(127), b: '1'.repeat(128), c: 'A'.repeat(127), d: 'F'.repeat(128) },
    })
    // a frame that grew the buffer, then small ones
    expectSameBytes({ tag: 'after', attrs: { to: '1@s.whatsapp.net' } })
  })

  it("throws Baileys' error on every node Baileys refuses, and gives Baileys' bytes for a tag that is not a string", () => {
    const cases: unknown[] = [
      { tag: 'x', attrs: {}, content: null },
      { tag: 'x', attrs: {}, content: 5 },
      { tag: 'x', attrs: {}, content: { tag: 'y' } },
      { tag: 'x', attrs: {}, content: true },
      { tag: 'x', attrs: {}, content: [Buffer.from('a')] },
      { tag: 'x', attrs: {}, content: ['child text'] },
      { tag: 'x', attrs: {}, content: [{ tag: 'ok' }, { tag: 'y', content: null }] },
      { attrs: {} },
      { tag: '', attrs: {} },
      null,
      undefined,
      { tag: 5, attrs: {} },
      { tag: ['1', '2'], attrs: {} },
      { tag: { toString: () => 'x' }, attrs: {} },
    ]
    for (const node of cases) {
      const theirs = outcome(() => baileys(node))
      expect(
        outcome(() => encode(node)),
        String(theirs),
      ).toBe(theirs)
    }
    expect(outcome(() => baileys(cases[0]))).toBe('Error: invalid children for header "x": null (object)')
  })

  it("a caller's prefix array goes through Baileys' encoder, which appends to it as before", () => {
    const node = STANZAS['ack of a receipt']!
    const theirs = [7, 300]
    const ours = [7, 300]
    expect(hex(encode(node, constants as unknown as EncodeOptions, ours))).toBe(
      hex(baileys(node, constants as unknown as EncodeOptions, theirs)),
    )
    expect(ours).toEqual(theirs)
    expect(ours.length).toBeGreaterThan(2)
  })

  it('an encode made from inside an encode (a getter) gives both frames right', () => {
    let inner: Buffer | undefined
    const node = {
      tag: 'outer',
      attrs: {
        get to() {
          inner = encode(STANZAS.ping!)
          return '4915112345678@s.whatsapp.net'
        },
      },
      content: [STANZAS['ack of a receipt']],
    }
    const ours = encode(node)
    expect(hex(inner!)).toBe(hex(baileys(STANZAS.ping!)))
    expect(hex(ours)).toBe(hex(baileys(node)))
  })

  it.each(Object.entries(STANZAS))('%s: decodes back to itself', async (_, stanza) => {
    const decoded = await decodeBinaryNode(encode(stanza))
    expect(comparable(decoded)).toEqual(comparable(stanza))
  })

  it("a shard-like process's Baileys writes its frames with the patched encoder once the inventory is installed", () => {
    const probe = (setup: string) =>
      inFreshProcess(`
${setup}
const { patchState } = await import('./src/platform/baileys/patches/source-hook.ts')
const { binaryEncoderPatch } = await import('./src/platform/baileys/patches/binary-encoder.ts')
const { STANZAS } = await import('./test/support/binary-nodes.ts')
const { encodeBinaryNode } = await import('@whiskeysockets/baileys')
// the file as Baileys ships it: a URL the hook does not rewrite
const original = await import(binaryEncoderPatch.url + '#original')
const node = STANZAS['text to a contact (own and contact devices, device identity, privacy token)']
const push = Array.prototype.push
let pushes = 0
Array.prototype.push = function (...items) { pushes++; return push.apply(this, items) }
const frame = encodeBinaryNode(node)
Array.prototype.push = push
console.log(JSON.stringify({
  state: patchState()['binary node encoder'] ?? null,
  pushes,
  length: frame.length,
  same: frame.equals(original.encodeBinaryNode(node)),
  isBuffer: Buffer.isBuffer(frame),
}))
`) as { state: string | null; pushes: number; length: number; same: boolean; isBuffer: boolean }
    const unpatched = probe('')
    const patched = probe(`await import('./src/platform/baileys/module.ts')`)
    // Baileys' own encoder pushes each byte after the prefix onto an array; the patched one writes into its buffer
    expect(unpatched).toMatchObject({ state: null, same: true, isBuffer: true })
    expect(unpatched.pushes).toBe(unpatched.length - 1)
    expect(patched).toEqual({ state: 'patched', pushes: 0, length: unpatched.length, same: true, isBuffer: true })
  })
})

/** A node as it decodes: content text and bytes both as the hex of their bytes (Baileys decodes raw text as bytes). */
function comparable(node: BinaryNode): unknown {
  const { tag, attrs, content } = node
  let c: unknown = content
  if (Array.isArray(content)) c = content.map(comparable)
  else if (typeof content === 'string' || content instanceof Uint8Array) c = hex(Buffer.from(content))
  return { tag, attrs, content: c }
}
