/**
 * @module storage/table
 * One lmdb sub-database seen through a codec: plain (as the store always wrote it: strings, msgpack objects) or
 * sealed (AES-256-GCM via `value-cipher.ts`, stored as bytes). The store's logic is the same either way; only how
 * a value becomes bytes changes, so DATA_KEY is a codec layer and the `Store` interface does not move.
 */
import type { Database, RootDatabase } from 'lmdb'
import type { SessionKeys } from './session-keys.js'
import { SealedValueError, SESSION_KEY_VERSION, sealedVersion, type ValueCipher } from './value-cipher.js'

/** How values of type T are kept in one sub-database. `encoding` is lmdb's own encoding of what `encode` returns. */
export interface RowCodec<T> {
  encoding: 'string' | 'msgpack' | 'binary'
  /** The stored name of a row (sealed rows hide contact and key ids); default: the name itself. `forWrite`: the
   * row is about to be written (a session key may be created for it). */
  storedKey?(key: string, forWrite: boolean): string
  encode(key: string, value: T): unknown
  decode(key: string, stored: unknown): T
}

/** Strings as lmdb strings (creds and Signal keys without DATA_KEY). */
export const plainText: RowCodec<string> = { encoding: 'string', encode: (_k, v) => v, decode: (_k, s) => s as string }

/** Objects as msgpack (contacts without DATA_KEY). */
export const plainObject = <T>(): RowCodec<T> => ({
  encoding: 'msgpack',
  encode: (_k, v) => v,
  decode: (_k, s) => s as T,
})

/** Strings sealed under the row's name. */
const sealedText = (cipher: ValueCipher, db: string): RowCodec<string> => ({
  encoding: 'binary',
  storedKey: key => cipher.hideName(key),
  encode: (key, value) => cipher.seal(db, key, Buffer.from(value, 'utf8')),
  decode: (key, stored) => cipher.open(db, key, stored as Uint8Array).toString('utf8'),
})

/** The session a row belongs to: its name up to the first NUL (creds rows are named by the id alone). */
const sessionOf = (name: string): string => {
  const cut = name.indexOf('\u0000')
  return cut < 0 ? name : name.slice(0, cut)
}

/**
 * Strings sealed with their session's own key (`session-keys.ts`); rows sealed with DATA_KEY before session keys
 * existed (version 1) are still read with `dataKeyCipher`. A version-2 row whose session key is gone does not open.
 */
export const sessionSealedText = (keys: SessionKeys, dataKeyCipher: ValueCipher, db: string): RowCodec<string> => ({
  encoding: 'binary',
  storedKey: (key, forWrite) => (forWrite ? keys.forWrite(sessionOf(key)) : keys.namesOf(sessionOf(key))).hideName(key),
  encode: (key, value) => keys.forWrite(sessionOf(key)).seal(db, key, Buffer.from(value, 'utf8')),
  decode: (key, stored) => {
    const bytes = stored as Uint8Array
    const cipher = sealedVersion(bytes) === SESSION_KEY_VERSION ? keys.forRead(sessionOf(key)) : dataKeyCipher
    if (!cipher) throw new SealedValueError(db)
    return cipher.open(db, key, bytes).toString('utf8')
  },
})

/** Objects as JSON in a string codec (sealed with DATA_KEY, or with the session's key). */
export const jsonOf = <T>(text: RowCodec<string>): RowCodec<T> => ({
  ...text,
  encode: (key, value) => text.encode(key, JSON.stringify(value)),
  decode: (key, stored) => JSON.parse(text.decode(key, stored)) as T,
})

/** Objects as sealed JSON. */
export const sealedObject = <T>(cipher: ValueCipher, db: string): RowCodec<T> => jsonOf<T>(sealedText(cipher, db))

export class Table<T> {
  readonly db: Database<unknown, string>
  readonly #codec: RowCodec<T>

  constructor(root: RootDatabase, name: string, codec: RowCodec<T>) {
    this.db = root.openDB<unknown, string>({ name, encoding: codec.encoding })
    this.#codec = codec
  }

  #stored(key: string, forWrite = false): string {
    return this.#codec.storedKey?.(key, forWrite) ?? key
  }

  get(key: string): T | undefined {
    const name = this.#stored(key)
    const stored = this.db.get(name)
    return stored === undefined ? undefined : this.#codec.decode(name, stored)
  }

  /** Inside a write transaction. */
  putSync(key: string, value: T): void {
    const name = this.#stored(key, true)
    this.db.putSync(name, this.#codec.encode(name, value))
  }

  removeSync(key: string): void {
    this.db.removeSync(this.#stored(key))
  }

  /** Every row, as [name, value] (the registry: its names are ids, never hidden). */
  entries(): Array<[string, T]> {
    return [
      ...this.db
        .getRange()
        .filter(({ key }) => typeof key === 'string')
        .map(({ key, value }): [string, T] => [key, this.#codec.decode(key, value)]),
    ]
  }

  /** Whether any row's stored key lies in [start, end). */
  hasRange(start: string, end: string): boolean {
    for (const _ of this.db.getKeys({ start, end, limit: 1 })) return true
    return false
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
