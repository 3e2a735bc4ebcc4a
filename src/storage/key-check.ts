/**
 * @module storage/key-check
 * Makes a wrong DATA_KEY a clear start-up error instead of silent corruption. A DATA_DIR written with a key holds
 * a marker row in the `meta` sub-database: a known text sealed with that key. At open:
 *   - key given, marker present: it must open with the key, else `DATA_KEY does not match ...`;
 *   - key given, no marker: the marker is written, unless the DATA_DIR already holds credentials, keys or contacts
 *     written in the clear (no silent mixing; SECURITY.md says how to move such a DATA_DIR);
 *   - no key, marker present: the DATA_DIR is encrypted and cannot be read;
 *   - no key, no marker: plain storage, as before.
 * The marker's text also says whether the session registry is sealed (v2): a DATA_DIR keyed before the registry
 * was sealed (v1) has its plain registry rows sealed, in the same transaction that rewrites the marker. The state
 * lives in the sealed marker, not in a row of its own, so whoever can write the volume cannot turn the registry
 * back to plain rows by deleting a flag.
 */
import type { Database, RootDatabase } from 'lmdb'
import { DataKeyError } from './data-key.js'
import { SealedValueError, type ValueCipher } from './value-cipher.js'

const META_DB = 'meta'
const MARKER_KEY = 'data-key-check'
const MARKER_TEXT_V1 = 'messaging-gateway DATA_KEY check v1'
const MARKER_TEXT = 'messaging-gateway DATA_KEY check v2: registry sealed'

export const WRONG_KEY = 'DATA_KEY does not match the key this DATA_DIR was written with'
export const KEY_MISSING = 'this DATA_DIR was written with DATA_KEY; start the gateway with the same DATA_KEY'
export const PLAIN_DATA =
  'this DATA_DIR holds credentials written without DATA_KEY; start without DATA_KEY, or ' +
  'move the DATA_DIR aside and pair the sessions again (see SECURITY.md)'

/** Opens the `meta` sub-database and applies the rules above; throws DataKeyError. `sealRegistry` seals the plain
 * registry rows (runs inside the transaction). */
export function checkDataKey(
  root: RootDatabase,
  cipher: ValueCipher | undefined,
  hasPlainData: () => boolean,
  sealRegistry: () => void,
): void {
  const meta: Database<Buffer, string> = root.openDB<Buffer, string>({ name: META_DB, encoding: 'binary' })
  root.transactionSync(() => {
    const marker = meta.get(MARKER_KEY)
    if (!cipher) {
      if (marker !== undefined) throw new DataKeyError(KEY_MISSING)
      return
    }
    if (marker === undefined) {
      if (hasPlainData()) throw new DataKeyError(PLAIN_DATA)
      sealRegistry()
      meta.putSync(MARKER_KEY, cipher.seal(META_DB, MARKER_KEY, Buffer.from(MARKER_TEXT)))
      return
    }
    let text: string
    try {
      text = cipher.open(META_DB, MARKER_KEY, marker).toString()
    } catch (err) {
      throw err instanceof SealedValueError ? new DataKeyError(WRONG_KEY) : err
    }
    if (text === MARKER_TEXT) return
    if (text !== MARKER_TEXT_V1) throw new DataKeyError(WRONG_KEY)
    sealRegistry()
    meta.putSync(MARKER_KEY, cipher.seal(META_DB, MARKER_KEY, Buffer.from(MARKER_TEXT)))
  })
}
