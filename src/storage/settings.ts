/**
 * @module storage/settings
 * Storage's slice of the settings (docs/operating.md): where lmdb keeps its file, the key everything stored is
 * sealed with, and how many sent messages a session keeps to answer retry receipts. Where cluster mode's Redis is
 * and how its leases are held are cluster mode's own slice.
 */
import { z } from 'zod'
import { int, optional, pickSettings, secret, type SliceOf } from '../settings/fields.js'
import { DATA_KEY_FORMAT, isDataKey } from './data-key.js'

export const STORAGE_SETTINGS = {
  DATA_DIR: z.string().default('./data'),
  /**
   * When lmdb flushes its commits to disk (docs/operating.md): `commit` = after every commit, overlapping the next
   * one; `second` = once a second. A 200 means committed either way (a crash or kill -9 of the process loses
   * nothing); a power cut or kernel crash can lose the commits not yet flushed: under `second`, up to about a second.
   */
  STORE_FLUSH: z.enum(['commit', 'second']).default('commit'),
  /** When set, stored credentials, Signal keys and contacts are encrypted (AES-256-GCM) with this 32-byte key. */
  DATA_KEY: secret(optional(z.string().refine(isDataKey, DATA_KEY_FORMAT))),
  /**
   * Sent messages kept per session to answer recipients' retry receipts after a restart (./sent-messages.ts): how
   * long (a phone that was offline asks when the platform delivers to it, often hours later) and how many; 0 = none.
   */
  RETRY_STORE_MAX_AGE_MS: int(24 * 60 * 60_000, 1),
  RETRY_STORE_MAX_MESSAGES: int(512, 0),
}

export type StorageSettings = SliceOf<typeof STORAGE_SETTINGS>

export const storageSettings = (values: StorageSettings): StorageSettings => pickSettings(values, STORAGE_SETTINGS)

/** What opening a store reads: where lmdb keeps its file, how it flushes, and the key every engine seals with. */
export type StoreSettings = Pick<StorageSettings, 'DATA_DIR' | 'DATA_KEY' | 'STORE_FLUSH'>
