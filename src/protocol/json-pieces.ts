/**
 * @module protocol/json-pieces
 * A JSON answer as a list of Buffers of about PIECE_CHARS characters each, made member by member from the value the
 * route already built, instead of one string of the whole body and then one Buffer copy of it (what express's
 * `res.json` does: for a 12 MB channel page, 24 MB or more at once besides the page itself). Each member of the
 * top two levels (`{ docs: [ ...each doc... ] }`) is stringified on its own and the text gathered into pieces: the
 * transient strings are one piece long, and the pieces are the one copy of the body, written to the socket as they
 * are (node hands Buffers to the kernel without copying them again). The text is exactly `JSON.stringify(value)`.
 * A shard thread builds a read's answer here too (`jsonBytesYielding`), as one block of bytes it hands to the main
 * thread without a copy (protocol/read-answers.ts).
 *
 * @example
 * const { pieces, bytes } = jsonPieces({ docs: [{ id: 'a' }], before: 0 })
 * Buffer.concat(pieces).toString() // '{"docs":[{"id":"a"}],"before":0}'
 */

/** Characters gathered before they become one Buffer: a few socket writes' worth, few enough pieces for writev. */
const PIECE_CHARS = 64 * 1024
/** Levels of arrays and plain objects taken apart (the answer object, then its lists); deeper values are stringified
 * whole. */
const DEPTH = 2

/** What JSON.stringify leaves out of an object, and writes as null in an array. */
const isSkipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol'

/** An object JSON.stringify walks key by key: plain, with no toJSON of its own (a Date is stringified whole). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v)
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function'
}

/** The text of `value` as consecutive strings, the containers of the top `depth` levels taken apart. */
function* texts(value: unknown, depth: number): Generator<string> {
  if (depth > 0 && Array.isArray(value)) {
    yield '['
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ','
      const item: unknown = value[i]
      if (isSkipped(item)) yield 'null'
      else yield* texts(item, depth - 1)
    }
    yield ']'
  } else if (depth > 0 && isPlainObject(value)) {
    yield '{'
    let first = true
    for (const key of Object.keys(value)) {
      const member = value[key]
      if (isSkipped(member)) continue
      yield `${first ? '' : ','}${JSON.stringify(key)}:`
      first = false
      yield* texts(member, depth - 1)
    }
    yield '}'
  } else {
    // JSON.stringify(undefined) is undefined: no value at all, which an answer body never is
    yield JSON.stringify(value) ?? 'null'
  }
}

export interface JsonPieces {
  pieces: Buffer[]
  /** Their length together: the answer's Content-Length. */
  bytes: number
}

/** The text gathered into Buffers: each full piece yielded as it fills, the last (partial or empty) returned. */
function* filledPieces(value: unknown): Generator<Buffer, Buffer> {
  let pending: string[] = []
  let pendingChars = 0
  for (const text of texts(value, DEPTH)) {
    pending.push(text)
    pendingChars += text.length
    if (pendingChars < PIECE_CHARS) continue
    yield Buffer.from(pending.join(''), 'utf8')
    pending = []
    pendingChars = 0
  }
  return Buffer.from(pending.join(''), 'utf8')
}

/** Every piece of `value`'s JSON at once. */
export function jsonPieces(value: unknown): JsonPieces {
  const pieces: Buffer[] = []
  const stream = filledPieces(value)
  for (let next = stream.next(); ; next = stream.next()) {
    if (next.value.length > 0) pieces.push(next.value)
    if (next.done) break
  }
  return { pieces, bytes: pieces.reduce((sum, piece) => sum + piece.length, 0) }
}

/**
 * The same pieces, the event loop let run after each full one: a large answer (a 12 MB history page is some 30 ms
 * of JSON) is built between the other requests instead of holding them all up; one piece or less is built at once.
 */
export async function jsonPiecesYielding(value: unknown): Promise<JsonPieces> {
  const pieces: Buffer[] = []
  const stream = filledPieces(value)
  for (let next = stream.next(); ; next = stream.next()) {
    if (next.value.length > 0) pieces.push(next.value)
    if (next.done) break
    await new Promise(resolve => setImmediate(resolve))
  }
  return { pieces, bytes: pieces.reduce((sum, piece) => sum + piece.length, 0) }
}

/**
 * The same text as one block of UTF-8 bytes in an ArrayBuffer of its own (never a slice of node's shared Buffer
 * pool), so a thread can transfer it to another instead of copying it; built a piece at a time like
 * `jsonPiecesYielding`, the thread's other work running between the pieces.
 */
export async function jsonBytesYielding(value: unknown): Promise<Uint8Array> {
  const { pieces, bytes } = await jsonPiecesYielding(value)
  const block = new Uint8Array(bytes)
  let at = 0
  for (const piece of pieces) {
    block.set(piece, at)
    at += piece.length
  }
  return block
}
