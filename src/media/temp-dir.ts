/**
 * @module media/temp-dir
 * The per-process folder for downloaded media (`<os.tmpdir()>/gateway-media-<pid>`). Every file in it is owned by
 * one request and removed when that request ends; the folder itself stays for the life of the process.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

export const defaultMediaTempDir = (): string => path.join(os.tmpdir(), `gateway-media-${process.pid}`)

/** A fresh, unused file path in `dir` (the folder is created on demand). */
export async function tempFilePath(dir: string, suffix = ''): Promise<string> {
  await mkdir(dir, { recursive: true })
  return path.join(dir, `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}${suffix}`)
}

/** Removes a file, ignoring "already gone". */
export async function removeQuietly(file: string): Promise<void> {
  await rm(file, { force: true }).catch(() => undefined)
}

/** Removes the per-process media folder (call on shutdown, after in-flight requests ended). */
export async function removeMediaTempDir(dir: string = defaultMediaTempDir()): Promise<void> {
  await rm(dir, { recursive: true, force: true }).catch(() => undefined)
}
