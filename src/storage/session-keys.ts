/**
 * @module storage/session-keys
 * Crypto-shredding for DATA_KEY deployments. lmdb never wipes a page it frees: a deleted row's bytes stay in
 * `gateway.mdb` until the page happens to be reused, and so does every older version of a row that was rewritten.
 * So each session gets its own random 32-byte key, its credentials, Signal keys and contacts are sealed with it
 * (version-2 values, `value-cipher.ts`), and deleting or resetting the session destroys the key: every copy of its
 * rows, live or left in free pages, is then noise, DATA_KEY or not.
 *
 * For the same reason the key cannot live in lmdb. Each is a file `DATA_DIR/session-keys/<hex of the id>` (0600, in
 * a 0700 folder) holding `[flags][32 key bytes]` sealed with DATA_KEY and bound to the session id (a key file
 * copied onto another session does not open). Destroying it overwrites the file with zeros in place, syncs, and
 * unlinks it. That reaches the disk blocks on ext4/xfs; a copy-on-write filesystem (btrfs, zfs) or an SSD's own
 * remapping may still hold the old blocks, which is why the file is only ever useful together with DATA_KEY.
 *
 * A session whose rows were sealed directly with DATA_KEY (written before session keys existed) gets a key on its
 * first write with the `legacy names` flag: its row names stay hashed with DATA_KEY's name key (only the hashes are
 * stored, so they cannot be re-hashed), its old version-1 rows are still read, and everything it writes from then
 * on is version 2.
 *
 * A key is read by any thread; a thread caches it and checks with one stat (inode and ctime) that the file is still
 * the one it read, so a key another thread replaced is never used.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { privateDir } from './file-modes.js'
import { createSessionCipher, type ValueCipher } from './value-cipher.js'

const KEY_DB = 'session-keys'
const LEGACY_NAMES = 1
const KEY_BYTES = 32

const SESSION_KEYS_DIR = 'session-keys'

interface Cached {
  ino: bigint
  ctimeNs: bigint
  cipher: ValueCipher
  legacyNames: boolean
}

/** Fsyncs a folder, so a file created or removed in it stays so after a crash. */
function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

export class SessionKeys {
  readonly #dir: string
  readonly #wrap: ValueCipher
  readonly #hasRows: (id: string) => boolean
  readonly #cache = new Map<string, Cached>()

  /**
   * @param wrap DATA_KEY's cipher: seals the key files, and is the cipher of version-1 rows
   * @param hasRows whether the session already has stored rows (then they predate its key: legacy names)
   */
  constructor(dataDir: string, wrap: ValueCipher, hasRows: (id: string) => boolean) {
    this.#dir = path.join(dataDir, SESSION_KEYS_DIR)
    privateDir(this.#dir)
    this.#wrap = wrap
    this.#hasRows = hasRows
  }

  #file(id: string): string {
    return path.join(this.#dir, Buffer.from(id, 'utf8').toString('hex'))
  }

  /** The session's cipher, or undefined when it has no key (nothing written since it was created, reset or
   * migrated). Throws SealedValueError when the key file does not open with DATA_KEY for this session. */
  forRead(id: string): ValueCipher | undefined {
    return this.#entry(id)?.cipher
  }

  /** The cipher that hides this session's row names: its own, or DATA_KEY's for a session without a key yet. */
  namesOf(id: string): ValueCipher {
    return this.forRead(id) ?? this.#wrap
  }

  /** The session's cipher, creating its key (durably, before anything is sealed with it) when it has none. */
  forWrite(id: string): ValueCipher {
    const existing = this.#entry(id)
    if (existing) return existing.cipher
    const key = randomBytes(KEY_BYTES)
    const flags = this.#hasRows(id) ? LEGACY_NAMES : 0
    const sealed = this.#wrap.seal(KEY_DB, id, Buffer.concat([Buffer.of(flags), key]))
    // Written whole under a private name, then linked into place: a reader never sees a half-written key, and
    // link() fails when another thread linked its key first (then theirs is used).
    const file = this.#file(id)
    const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`
    const fd = fs.openSync(draft, 'wx', 0o600)
    try {
      fs.writeSync(fd, sealed)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    try {
      fs.linkSync(draft, file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    } finally {
      fs.unlinkSync(draft)
    }
    syncDir(this.#dir)
    return this.forWrite(id)
  }

  /** Overwrites the session's key file with zeros, syncs and removes it: whatever was sealed with it is unreadable. */
  destroy(id: string): void {
    this.#cache.delete(id)
    const file = this.#file(id)
    let fd: number
    try {
      fd = fs.openSync(file, 'r+')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
      throw err
    }
    try {
      fs.writeSync(fd, Buffer.alloc(fs.fstatSync(fd).size), 0, undefined, 0)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.unlinkSync(file)
    syncDir(this.#dir)
  }

  #entry(id: string): Cached | undefined {
    const file = this.#file(id)
    const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false })
    if (!stat) {
      this.#cache.delete(id)
      return undefined
    }
    const hit = this.#cache.get(id)
    if (hit && hit.ino === stat.ino && hit.ctimeNs === stat.ctimeNs) return hit
    let sealed: Buffer
    try {
      sealed = fs.readFileSync(file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw err
    }
    const plain = this.#wrap.open(KEY_DB, id, sealed)
    const legacyNames = plain[0] === LEGACY_NAMES
    const cipher = createSessionCipher(
      plain.subarray(1, 1 + KEY_BYTES),
      legacyNames ? name => this.#wrap.hideName(name) : undefined,
    )
    plain.fill(0)
    const entry = { ino: stat.ino, ctimeNs: stat.ctimeNs, cipher, legacyNames }
    this.#cache.set(id, entry)
    return entry
  }
}
