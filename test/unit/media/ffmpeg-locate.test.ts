/**
 * Which ffmpeg the gateway runs (src/media/ffmpeg-locate.ts): FFMPEG_PATH, else `ffmpeg` on PATH, else none (the
 * default thumbnail, and one warning at start naming the setting); and prlimit for the memory and CPU caps.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ffmpegStartupWarnings, locateFfmpeg } from '../../../src/media/ffmpeg-locate.js'

let dir: string
let withFfmpeg: string
let withPrlimit: string
let empty: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-locate-'))
  ;[withFfmpeg, withPrlimit, empty] = ['a', 'b', 'c'].map(d => path.join(dir, d)) as [string, string, string]
  for (const d of [withFfmpeg, withPrlimit, empty]) await mkdir(d)
  await writeFile(path.join(withFfmpeg, 'ffmpeg'), '#!/bin/sh\n', { mode: 0o755 })
  await writeFile(path.join(withPrlimit, 'prlimit'), '#!/bin/sh\n', { mode: 0o755 })
  // not executable: not an ffmpeg
  await writeFile(path.join(empty, 'ffmpeg'), 'data', { mode: 0o644 })
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const pathOf = (...dirs: string[]) => dirs.join(path.delimiter)

describe('locating ffmpeg', () => {
  it('unset FFMPEG_PATH: the first executable `ffmpeg` on PATH, and prlimit beside it', () => {
    const found = locateFfmpeg({}, pathOf(empty, withFfmpeg, withPrlimit))
    expect(found).toEqual({
      ffmpeg: path.join(withFfmpeg, 'ffmpeg'),
      prlimit: path.join(withPrlimit, 'prlimit'),
      configured: undefined,
    })
    expect(ffmpegStartupWarnings(found)).toEqual([])
  })

  it('FFMPEG_PATH wins over PATH', () => {
    const mine = path.join(withFfmpeg, 'ffmpeg')
    expect(locateFfmpeg({ FFMPEG_PATH: mine }, pathOf(withPrlimit)).ffmpeg).toBe(mine)
  })

  it('FFMPEG_PATH at a missing file: no ffmpeg (not the one on PATH), and a warning naming the setting', () => {
    const found = locateFfmpeg({ FFMPEG_PATH: path.join(dir, 'nope') }, pathOf(withFfmpeg, withPrlimit))
    expect(found.ffmpeg).toBeUndefined()
    expect(ffmpegStartupWarnings(found)).toEqual([
      `FFMPEG_PATH=${path.join(dir, 'nope')} is not an executable file: videos are sent with the default thumbnail`,
    ])
  })

  it('no ffmpeg on PATH: one warning saying videos get the default thumbnail and naming FFMPEG_PATH', () => {
    const found = locateFfmpeg({}, pathOf(empty, withPrlimit))
    expect(found.ffmpeg).toBeUndefined()
    const warnings = ffmpegStartupWarnings(found)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/FFMPEG_PATH.*default thumbnail/)
  })

  it('no prlimit: ffmpeg still runs, and the warning names the limits it runs without', () => {
    const found = locateFfmpeg({}, pathOf(withFfmpeg))
    expect(found.ffmpeg).toBe(path.join(withFfmpeg, 'ffmpeg'))
    expect(found.prlimit).toBeUndefined()
    expect(ffmpegStartupWarnings(found)).toEqual([
      expect.stringMatching(/FFMPEG_MAX_MEMORY_MB and FFMPEG_MAX_CPU_SECONDS/),
    ])
  })

  it('relative PATH entries are ignored (a tenant-writable working directory is not searched)', () => {
    const relative = path.relative(process.cwd(), withFfmpeg)
    expect(locateFfmpeg({}, pathOf(relative)).ffmpeg).toBeUndefined()
  })
})
