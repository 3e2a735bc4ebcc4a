/**
 * @module media/temp-sweep
 * A gateway that crashed (kill -9, OOM) never removed its media folders; files of half-finished downloads stay in
 * them. At start the gateway removes such leftovers, carefully, since os.tmpdir() is shared with everyone:
 *   - only entries named `gateway-media-<pid>` (older versions) or `gateway-media-<pid>-XXXXXX`;
 *   - only real folders (not symlinks) owned by this user (others' folders are theirs, and in a sticky /tmp not
 *     removable anyway); nothing outside them is followed (`rm` unlinks links inside, never their targets);
 *   - a folder whose process is gone is removed whole;
 *   - a folder whose pid is alive (this process, another gateway, or an unrelated process that reused the pid) is
 *     kept, but files in it older than a day are removed: no request keeps a download that long.
 */
import { lstat, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { MEDIA_DIR_PREFIX } from './temp-dir.js'

const DAY_MS = 24 * 60 * 60 * 1000
const NAME = new RegExp(`^${MEDIA_DIR_PREFIX}(\\d+)(?:-[A-Za-z0-9]{6})?$`)

export interface SweepOptions {
  tmp?: string
  now?: number
  /** Whether a process with this pid exists (default: signal 0). */
  isAlive?: (pid: number) => boolean
}

export interface SweepResult {
  /** Folders removed whole. */
  removed: string[]
  /** Day-old files removed from folders whose pid is alive. */
  staleFiles: string[]
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' // exists, someone else's
  }
}

/** Removes media folders left by dead gateway processes (see the module comment). Never throws. */
export async function sweepStaleMediaDirs(options: SweepOptions = {}): Promise<SweepResult> {
  const tmp = options.tmp ?? os.tmpdir()
  const now = options.now ?? Date.now()
  const isAlive = options.isAlive ?? processAlive
  const uid = process.getuid?.()
  const result: SweepResult = { removed: [], staleFiles: [] }
  const names = await readdir(tmp).catch(() => [] as string[])
  for (const name of names) {
    const pid = Number(NAME.exec(name)?.[1] ?? NaN)
    if (!Number.isSafeInteger(pid) || pid <= 0) continue
    const dir = path.join(tmp, name)
    const info = await lstat(dir).catch(() => undefined)
    if (!info?.isDirectory() || (uid !== undefined && info.uid !== uid)) continue
    if (pid !== process.pid && !isAlive(pid)) {
      await rm(dir, { recursive: true, force: true }).then(
        () => result.removed.push(dir),
        () => undefined,
      )
      continue
    }
    for (const file of await readdir(dir).catch(() => [] as string[])) {
      const full = path.join(dir, file)
      const entry = await lstat(full).catch(() => undefined)
      if (entry && now - entry.mtimeMs > DAY_MS) {
        await rm(full, { recursive: true, force: true }).then(
          () => result.staleFiles.push(full),
          () => undefined,
        )
      }
    }
  }
  return result
}
