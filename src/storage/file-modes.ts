/**
 * @module storage/file-modes
 * DATA_DIR holds every tenant's platform credentials: only the gateway's user may read it. The folder is created
 * 0700, and an existing one is tightened to 0700 at every start (a DATA_DIR made by an older version, or by hand, was
 * 0755); the gateway's files in it are 0600. A folder the gateway's user does not own cannot be changed: it is left
 * as it is (the operator chose it, e.g. a volume shared with a backup agent), and its files are still 0600.
 */
import fs from 'node:fs'

const notOwner = (err: unknown): boolean =>
  ['EPERM', 'EACCES', 'EROFS'].includes((err as NodeJS.ErrnoException).code ?? '')

/** Creates `dir` (and parents) if needed and makes it 0700. */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  try {
    fs.chmodSync(dir, 0o700)
  } catch (err) {
    if (!notOwner(err)) throw err
  }
}

/** Makes an existing file 0600. */
export function privateFile(file: string): void {
  try {
    fs.chmodSync(file, 0o600)
  } catch (err) {
    if (!notOwner(err)) throw err
  }
}
