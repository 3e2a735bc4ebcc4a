/**
 * @module storage/registry-row
 * A session registry row as it is on disk. The hash of the session's secret is `secretHash` in the code, but every
 * DATA_DIR so far holds it as `sessionIdHash`, and so do new rows: a DATA_DIR reads the same with any version,
 * older ones included. This file is the only place that names the stored field.
 */
import type { SessionRecord } from './types.js'
import type { RowCodec } from './table.js'

const STORED = 'sessionIdHash'
const IN_CODE = 'secretHash'

/** A registry row on disk: the record with the secret's hash under its stored name. */
export type StoredSessionRecord = Omit<SessionRecord, typeof IN_CODE> & { [STORED]: string }

/** Renames one key, keeping the order of the others (so rows keep their byte layout). */
const renameKey = (row: object, from: string, to: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [key === from ? to : key, value]))

export const toStoredRecord = (record: SessionRecord): StoredSessionRecord =>
  renameKey(record, IN_CODE, STORED) as StoredSessionRecord

export const fromStoredRecord = (row: StoredSessionRecord): SessionRecord =>
  renameKey(row, STORED, IN_CODE) as unknown as SessionRecord

/** The registry table's codec: `SessionRecord`s in, stored rows through `codec`. */
export const registryRows = (codec: RowCodec<StoredSessionRecord>): RowCodec<SessionRecord> => ({
  ...codec,
  encode: (key, record) => codec.encode(key, toStoredRecord(record)),
  decode: (key, stored) => fromStoredRecord(codec.decode(key, stored)),
})
