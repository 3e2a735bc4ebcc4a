/**
 * @module platform/baileys/patches/binary-encoder
 * Baileys' binary node encoder (`WABinary/encode.js`) rewritten to write into one reused byte buffer.
 *
 * Why: every frame the socket writes (each message stanza, each receipt's ack, each query) goes through
 * `encodeBinaryNode`. Per node it made ~15 closures, pushed every byte onto a plain array of numbers, walked byte
 * arrays with iterators, and copied the array into a Buffer at the end: ~28 KB of the ~263 KB a shard thread
 * allocated per sent text (a sampling heap profile of a send burst).
 *
 * How (a rewrite of `encode.js` as it loads, `source-hook.ts`): the exported `encodeBinaryNode` becomes the encoder
 * below, built with the file's own `constants`, and Baileys' own encoder stays in the file as its fallback. The encoder writes each byte Baileys wrote, in the same order and by the same rules (tokens, double-byte
 * tokens, nibble and hex packing, the JID forms of `jidDecode`, list and byte lengths, byte and string content,
 * nested nodes), into a module-level Buffer that doubles when full, and returns a copy of the bytes written. What it
 * does not handle the same way by construction goes to Baileys' encoder, whose bytes or error the caller gets: an
 * explicit prefix array (Baileys appends to the caller's array), a call made while an encode is running (a getter
 * that encodes), a tag that is not a string, and every input on which the encoder throws (invalid children, a
 * missing tag), so each error is Baileys' own. The rewrite applies only to the exact `encode.js` of the version it
 * was written for (its SHA-256), since the encoder mirrors that text's rules.
 */
import { createHash } from 'node:crypto'
import { NIBBLE, nibbleOf, packedKind, type Token, type TokenLookup, tokenLookup } from './binary-strings.js'
import { baileysFileUrl, type SourcePatch } from './source-hook.js'

/** What Baileys' encoder reads from its `opts` (its `constants` module). */
export interface EncodeOptions {
  TAGS: Record<string, number>
  TOKEN_MAP: Record<string, Token>
}
export type EncodeBinaryNode = (node: unknown, opts?: EncodeOptions, buffer?: number[]) => Buffer

const INITIAL_BYTES = 1024
/** A larger buffer (a frame with a big binary payload) is dropped after its encode rather than kept by the thread. */
const KEPT_BYTES = 64 * 1024
/** Thrown by the encoder to hand a node to Baileys' encoder; made once, so throwing it takes no stack. */
const TO_BAILEYS = new Error('a node for Baileys’ own encoder')

let out = Buffer.allocUnsafeSlow(INITIAL_BYTES)
let at = 0
let busy = false
let tags: Record<string, number> = {}
let tokens: TokenLookup | undefined

function tokenOf(str: string): Token | undefined {
  return tokens!.own.get(str) ?? (tokens!.inherited.has(str) ? tokens!.map[str] : undefined)
}

/** Room for `n` more bytes at `at`. */
function reserve(n: number): void {
  if (at + n <= out.length) return
  let size = out.length * 2
  while (size < at + n) size *= 2
  const bigger = Buffer.allocUnsafeSlow(size)
  out.copy(bigger, 0, 0, at)
  out = bigger
}

function writeByte(value: number): void {
  reserve(1)
  out[at++] = value & 0xff
}

function writeByteLength(length: number): void {
  if (length >= 4294967296) throw new Error(`string too large to encode: ${length}`)
  reserve(5)
  if (length >= 1 << 20) {
    out[at++] = tags.BINARY_32! & 0xff
    out[at++] = (length >> 24) & 0xff
    out[at++] = (length >> 16) & 0xff
    out[at++] = (length >> 8) & 0xff
    out[at++] = length & 0xff
  } else if (length >= 256) {
    out[at++] = tags.BINARY_20! & 0xff
    out[at++] = (length >> 16) & 0x0f
    out[at++] = (length >> 8) & 0xff
    out[at++] = length & 0xff
  } else {
    out[at++] = tags.BINARY_8! & 0xff
    out[at++] = length & 0xff
  }
}

function writeListStart(size: number): void {
  reserve(3)
  if (size === 0) out[at++] = tags.LIST_EMPTY! & 0xff
  else if (size < 256) {
    out[at++] = tags.LIST_8! & 0xff
    out[at++] = size
  } else {
    out[at++] = tags.LIST_16! & 0xff
    out[at++] = (size >> 8) & 0xff
    out[at++] = size & 0xff
  }
}

/** A string's UTF-8 bytes, as Baileys' `Buffer.from(str, 'utf-8')` makes them, after their length. */
function writeRawString(str: string): void {
  const length = Buffer.byteLength(str, 'utf8')
  writeByteLength(length)
  reserve(length)
  if (length === str.length && length < 32) {
    // ASCII (one byte a character): a short loop beats the call into the UTF-8 writer
    const o = out
    for (let i = 0; i < length; i++) o[at + i] = str.charCodeAt(i)
  } else out.write(str, at, length, 'utf8')
  at += length
}

function writePacked(str: string, kind: number): void {
  const n = str.length
  reserve(2 + ((n + 1) >> 1))
  const o = out
  let p = at
  o[p++] = (kind === NIBBLE ? tags.NIBBLE_8! : tags.HEX_8!) & 0xff
  o[p++] = (Math.ceil(n / 2) | (n % 2 !== 0 ? 128 : 0)) & 0xff
  const pairs = n >> 1
  for (let i = 0; i < pairs; i++)
    o[p++] = ((nibbleOf(str.charCodeAt(2 * i), kind) << 4) | nibbleOf(str.charCodeAt(2 * i + 1), kind)) & 0xff
  if (n % 2 !== 0) o[p++] = ((nibbleOf(str.charCodeAt(n - 1), kind) << 4) | 15) & 0xff
  at = p
}

/**
 * A string with an `@` at `sep`, as Baileys writes what `jidDecode` makes of it: the server after the first `@`;
 * before it `user[_agent[_...]][:device[:...]]`. With a device (text that is not empty): AD_JID, the domain type
 * (`lid` 1, `hosted` 128, `hosted.lid` 129, else the agent as a number, else 0), the device, the user (the server
 * is not written). Else JID_PAIR, the user (LIST_EMPTY when empty) and the server. Read in place, with no arrays.
 */
function writeJid(str: string, sep: number): void {
  let colon = str.indexOf(':')
  if (colon > sep) colon = -1
  const userAgentEnd = colon < 0 ? sep : colon
  let underscore = str.indexOf('_')
  if (underscore >= userAgentEnd) underscore = -1
  const user = str.slice(0, underscore < 0 ? userAgentEnd : underscore)
  const device = colon < 0 ? '' : str.slice(colon + 1, partEnd(str, ':', colon, sep))
  if (device !== '') {
    const server = str.slice(sep + 1)
    let domainType: number
    if (server === 'lid') domainType = 1
    else if (server === 'hosted') domainType = 128
    else if (server === 'hosted.lid') domainType = 129
    else {
      const agent = underscore < 0 ? '' : str.slice(underscore + 1, partEnd(str, '_', underscore, userAgentEnd))
      // biome-ignore lint/correctness/useParseIntRadix: jidDecode's own parseInt, which reads '0x1f' as 31
      domainType = agent ? Number.parseInt(agent) : 0
    }
    reserve(3)
    out[at++] = tags.AD_JID! & 0xff
    out[at++] = (domainType || 0) & 0xff
    out[at++] = (+device || 0) & 0xff
    writeString(user)
  } else {
    writeByte(tags.JID_PAIR!)
    if (user.length) writeString(user)
    else writeByte(tags.LIST_EMPTY!)
    writeString(str.slice(sep + 1))
  }
}

/** Where the part that starts after `separator` at `from` ends: at the next `separator`, or at `end`. */
function partEnd(str: string, separator: string, from: number, end: number): number {
  const next = str.indexOf(separator, from + 1)
  return next < 0 || next > end ? end : next
}

/** Baileys' order: a token, a packed string (nibble before hex), a JID, else the raw UTF-8 bytes. */
function writeString(str: string): void {
  if (str === '') {
    writeRawString(str)
    return
  }
  const token = tokenOf(str)
  if (token) {
    if (typeof token.dict === 'number') writeByte(tags.DICTIONARY_0! + token.dict)
    writeByte(token.index)
    return
  }
  const kind = str.length > tags.PACKED_MAX! ? 0 : packedKind(str)
  if (kind !== 0) writePacked(str, kind)
  else {
    const sep = str.indexOf('@')
    if (sep >= 0) writeJid(str, sep)
    else writeRawString(str)
  }
}

/** An item Baileys' encoder keeps from a content array (it throws on those with no tag: so does `writeNode`). */
const kept = (item: unknown): boolean =>
  !!item &&
  !!((item as { tag?: unknown }).tag || Buffer.isBuffer(item) || item instanceof Uint8Array || typeof item === 'string')

function writeNode(node: unknown): void {
  const { tag, attrs, content } = node as { tag: unknown; attrs: unknown; content: unknown }
  if (typeof tag !== 'string' || tag === '') throw TO_BAILEYS
  // Baileys' `Object.keys(attrs || {})`: own enumerable keys, in the same order, with no array made per node
  const attributes = (attrs || {}) as Record<string, unknown>
  let present = 0
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue
    const value = attributes[key]
    if (typeof value !== 'undefined' && value !== null) present++
  }
  writeListStart(2 * present + 1 + (typeof content !== 'undefined' ? 1 : 0))
  writeString(tag)
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue
    const value = attributes[key]
    // a value that is neither a string nor missing is counted in the list size but not written, as Baileys does
    if (typeof value === 'string') {
      writeString(key)
      writeString(value)
    }
  }
  if (typeof content === 'string') writeString(content)
  else if (Buffer.isBuffer(content) || content instanceof Uint8Array) {
    writeByteLength(content.length)
    reserve(content.length)
    out.set(content, at)
    at += content.length
  } else if (Array.isArray(content)) {
    let items = 0
    for (let i = 0; i < content.length; i++) if (kept(content[i])) items++
    writeListStart(items)
    for (let i = 0; i < content.length; i++) if (kept(content[i])) writeNode(content[i])
  } else if (typeof content !== 'undefined') throw TO_BAILEYS
}

/** `encodeBinaryNode(node, opts = defaults, buffer = [0])` with the encoder above and `baileys` as its fallback. */
export function binaryNodeEncoder(defaults: EncodeOptions, baileys: EncodeBinaryNode) {
  return function encodeBinaryNode(node: unknown, opts: EncodeOptions = defaults, buffer?: number[]): Buffer {
    if (buffer !== undefined || busy) return baileys(node, opts, buffer)
    busy = true
    try {
      tags = opts.TAGS
      tokens = tokens?.map === opts.TOKEN_MAP ? tokens : tokenLookup(opts.TOKEN_MAP)
      at = 0
      out[at++] = 0
      writeNode(node)
      const frame = Buffer.allocUnsafe(at)
      out.copy(frame, 0, 0, at)
      return frame
    } catch {
      return baileys(node, opts)
    } finally {
      busy = false
      if (out.length > KEPT_BYTES) out = Buffer.allocUnsafeSlow(INITIAL_BYTES)
    }
  }
}

/** `encode.js` of Baileys 7.0.0-rc14, whose rules the encoder mirrors. */
const EXPECTED_SHA256 = '2bb4fa700d72d5745abf60d9541f554535d3f459ae01d280dc6d139aaa1dc8ed'

const BAILEYS_EXPORT = `export const encodeBinaryNode = (node, opts = constants, buffer = [0]) => {
    const encoded = encodeBinaryNodeInner(node, opts, buffer);
    return Buffer.from(encoded);
};`

/**
 * `encode.js` with its export made the encoder above (Baileys' own kept as its fallback), or undefined when the file
 * is not the expected one. Lines keep their numbers (the import joins the first line, the export the fourth), so a
 * stack trace through the file still points at the right line.
 */
export function binaryEncoderSource(source: string): string | undefined {
  if (createHash('sha256').update(source).digest('hex') !== EXPECTED_SHA256) return undefined
  const parts = source.split(BAILEYS_EXPORT)
  if (parts.length !== 2) return undefined
  const fallback = BAILEYS_EXPORT.replace('export const encodeBinaryNode', 'const baileysEncodeBinaryNode')
  const encoder = 'export const encodeBinaryNode = binaryNodeEncoder(constants, baileysEncodeBinaryNode);'
  // the URL as a JSON string: no quoted specifier after `from` for the production build's import scan to read
  const url = JSON.stringify(import.meta.url)
  return `import { binaryNodeEncoder } from ${url}; ${parts[0]}${fallback} ${encoder}${parts[1]}`
}

export const binaryEncoderPatch: SourcePatch = {
  name: 'binary node encoder',
  url: baileysFileUrl('lib/WABinary/encode.js'),
  rewrite: binaryEncoderSource,
}
