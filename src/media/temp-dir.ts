/**
 * @module media/temp-dir
 * Downloaded media waits in a private folder, `<os.tmpdir()>/gateway-media-<pid>-XXXXXX`: made by `mkdtemp` (0700,
 * a random name another user cannot guess or plant beforehand, never an existing folder) by each thread on its
 * first download, and made again if something (a tmp cleaner) removed it. Files in it are created 0600 and
 * exclusively (`wx`: never through a link planted under their name). Each file is removed when its request ends;
 * the process removes its folders on shutdown (worker threads share its pid, so `gateway-media-<pid>-*` is all of
 * them), and every start sweeps the folders of processes that died without doing so (`media/temp-sweep.ts`).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

export const MEDIA_DIR_PREFIX = 'gateway-media-'

/** Options for writing a temp file: owner-only, and failing rather than following anything already there. */
export const PRIVATE_NEW_FILE = { flags: 'wx', mode: 0o600 } as const

let ours: Promise<string> | undefined

/** This thread's media folder, made on first use (and again when it disappeared). */
async function mediaTempDir(): Promise<string> {
  if (ours) {
    const dir = await ours
    if (
      await stat(dir).then(
        s => s.isDirectory(),
        () => false,
      )
    )
      return dir
    ours = undefined
  }
  ours ??= mkdtemp(path.join(os.tmpdir(), `${MEDIA_DIR_PREFIX}${process.pid}-`))
  ours.catch(() => {
    ours = undefined
  })
  return ours
}

/** A fresh, unused file path in `dir` (default: this thread's media folder; a given folder is made 0700). */
export async function tempFilePath(dir?: string, suffix = ''): Promise<string> {
  const folder = dir ?? (await mediaTempDir())
  if (dir !== undefined) await mkdir(dir, { recursive: true, mode: 0o700 })
  return path.join(folder, `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}${suffix}`)
}

/** Removes a file, ignoring "already gone". */
export async function removeQuietly(file: string): Promise<void> {
  await rm(file, { force: true }).catch(() => undefined)
}

/** Removes every media folder of this process (call on shutdown, after in-flight requests ended). */
export async function removeMediaTempDirs(tmp: string = os.tmpdir()): Promise<void> {
  const mine = `${MEDIA_DIR_PREFIX}${process.pid}-`
  const names = await readdir(tmp).catch(() => [] as string[])
  await Promise.all(
    names
      .filter(name => name.startsWith(mine))
      .map(name => rm(path.join(tmp, name), { recursive: true, force: true }).catch(() => undefined)),
  )
  ours = undefined
}
