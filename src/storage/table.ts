/**
 * @module storage/table
 * One lmdb sub-database seen through a codec: plain (as the store always wrote it: strings, msgpack objects) or
 * sealed (AES-256-GCM via `value-cipher.ts`, stored as bytes). The store's logic is the same either way; only how
 * a value becomes bytes changes, so DATA_KEY is a codec layer and the `Store` interface does not move.
 */
import type { Database, RootDatabase } from 'lmdb'
import type { ValueCipher } from './value-cipher.js'

/** How values of type T are kept in one sub-database. `encoding` is lmdb's own encoding of what `encode` returns. */
export interface RowCodec<T> {
  encoding: 'string' | 'msgpack' | 'binary'
  /** The stored name of a row (sealed rows hide contact and key ids); default: the name itself. */
  storedKey?(key: string): string
  encode(key: string, value: T): unknown
  decode(key: string, stored: unknown): T
}

/** Strings as lmdb strings (creds and Signal keys without DATA_KEY). */
export const plainText: RowCodec<string> = { encoding: 'string', encode: (_k, v) => v, decode: (_k, s) => s as string }

/** Objects as msgpack (contacts without DATA_KEY). */
export const plainObject = <T>(): RowCodec<T> => ({ encoding: 'msgpack', encode: (_k, v) => v, decode: (_k, s) => s as T })

/** Strings sealed under the row's name. */
export const sealedText = (cipher: ValueCipher, db: string): RowCodec<string> => ({
  encoding: 'binary',
  storedKey: key => cipher.hideName(key),
  encode: (key, value) => cipher.seal(db, key, Buffer.from(value, 'utf8')),
  decode: (key, stored) => cipher.open(db, key, stored as Uint8Array).toString('utf8'),
})

/** Objects as sealed JSON. */
export const sealedObject = <T>(cipher: ValueCipher, db: string): RowCodec<T> => {
  const text = sealedText(cipher, db)
  return {
    ...text,
    encode: (key, value) => text.encode(key, JSON.stringify(value)),
    decode: (key, stored) => JSON.parse(text.decode(key, stored)) as T,
  }
}

export class Table<T> {
  readonly db: Database<unknown, string>
  readonly #codec: RowCodec<T>

  constructor(root: RootDatabase, name: string, codec: RowCodec<T>) {
    this.db = root.openDB<unknown, string>({ name, encoding: codec.encoding })
    this.#codec = codec
  }

  #stored(key: string): string {
    return this.#codec.storedKey?.(key) ?? key
  }

  get(key: string): T | undefined {
    const name = this.#stored(key)
    const stored = this.db.get(name)
    return stored === undefined ? undefined : this.#codec.decode(name, stored)
  }

  /** Inside a write transaction. */
  putSync(key: string, value: T): void {
    const name = this.#stored(key)
    this.db.putSync(name, this.#codec.encode(name, value))
  }

  put(key: string, value: T): Promise<boolean> {
    const name = this.#stored(key)
    return this.db.put(name, this.#codec.encode(name, value))
  }

  removeSync(key: string): void {
    this.db.removeSync(this.#stored(key))
  }

  /** Every value whose stored key lies in [start, end) (a session prefix range: prefixes are never hidden). */
  range(start: string, end: string): T[] {
    return [...this.db.getRange({ start, end }).map(({ key, value }) => this.#codec.decode(key, value))]
  }

  /** Removes every row whose key lies in [start, end) (inside a write transaction). */
  removeRangeSync(start: string, end: string): void {
    for (const key of this.db.getKeys({ start, end })) this.db.removeSync(key)
  }

  isEmpty(): boolean {
    for (const _ of this.db.getKeys({ limit: 1 })) return false
    return true
  }
}
