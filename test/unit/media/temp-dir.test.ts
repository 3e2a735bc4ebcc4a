/**
 * @module test/unit/media/temp-dir
 * Downloaded media waits in a folder nobody else can read or predict: `gateway-media-<pid>-XXXXXX` from mkdtemp
 * (0700), files 0600, never a folder planted under the old predictable name. Shutdown removes this process's
 * folders; a start sweeps the folders of dead gateway processes, and day-old files of live ones, touching nothing
 * else in the shared temp folder.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { downloadToTemp, type DownloadOptions } from '../../../src/media/download.js'
import { removeMediaTempDirs } from '../../../src/media/temp-dir.js'
import { sweepStaleMediaDirs } from '../../../src/media/temp-sweep.js'
import { onLoopback, type OnLoopback } from '../../support/loopback-server.js'

const payload = Buffer.from('media bytes of a tenant')
let served: OnLoopback<http.Server>
let base: string
let tmp: string
const previousTmp = process.env.TMPDIR
const options: DownloadOptions = { maxBytes: 1_000_000, timeoutMs: 15_000, maxRedirects: 0, blockPrivate: false }

beforeAll(async () => {
  // os.tmpdir() follows TMPDIR: this file's process gets a temp folder of its own to look into
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'media-temp-test-'))
  process.env.TMPDIR = tmp
  served = await onLoopback(http.createServer((_req, res) => res.end(payload)))
  base = served.url
})
afterAll(async () => {
  await served.close()
  if (previousTmp === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = previousTmp
  fs.rmSync(tmp, { recursive: true, force: true })
})

const mode = (p: string) => fs.statSync(p).mode & 0o777
/** The pid of a process that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!

describe('media temp folder', () => {
  it('is made by mkdtemp (0700, unpredictable name), its files are 0600, a planted folder is not used', async () => {
    const planted = path.join(tmp, `gateway-media-${process.pid}`) // the old, predictable name
    fs.mkdirSync(planted, { mode: 0o777 })
    const file = await downloadToTemp(`${base}/a`, options)
    const dir = path.dirname(file.path)
    expect(path.dirname(dir)).toBe(tmp)
    expect(path.basename(dir)).toMatch(new RegExp(`^gateway-media-${process.pid}-[A-Za-z0-9]{6}$`))
    expect(dir).not.toBe(planted)
    expect(mode(dir)).toBe(0o700)
    expect(mode(file.path)).toBe(0o600)
    expect(fs.readFileSync(file.path).equals(payload)).toBe(true)
    // the folder is reused by the next download, and made again if a tmp cleaner removed it
    const second = await downloadToTemp(`${base}/b`, options)
    expect(path.dirname(second.path)).toBe(dir)
    fs.rmSync(dir, { recursive: true })
    const third = await downloadToTemp(`${base}/c`, options)
    expect(path.dirname(third.path)).not.toBe(dir)
    expect(mode(path.dirname(third.path))).toBe(0o700)
    await file.dispose()

    await removeMediaTempDirs()
    expect(fs.existsSync(path.dirname(third.path))).toBe(false)
    expect(fs.existsSync(planted)).toBe(true) // not a folder this process made: not its to remove
    fs.rmdirSync(planted)
  })

  it("a start sweeps dead processes' folders and day-old files of live ones, nothing else", async () => {
    const sweepTmp = fs.mkdtempSync(path.join(tmp, 'sweep-'))
    const at = (name: string) => path.join(sweepTmp, name)
    const dead = deadPid()
    const deadDir = at(`gateway-media-${dead}-Ab12Cd`)
    fs.mkdirSync(deadDir)
    fs.writeFileSync(path.join(deadDir, 'half-download'), 'x')
    const legacyDead = at(`gateway-media-${dead}`)
    fs.mkdirSync(legacyDead)
    // a live process's folder (ours): its fresh file stays, its day-old file goes
    const live = at(`gateway-media-${process.pid}-Zz99Yy`)
    fs.mkdirSync(live)
    fs.writeFileSync(path.join(live, 'in-flight'), 'x')
    fs.writeFileSync(path.join(live, 'forgotten'), 'x')
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000)
    fs.utimesSync(path.join(live, 'forgotten'), twoDaysAgo, twoDaysAgo)
    // a link under a matching name is not followed, other names are not touched
    const target = at('precious')
    fs.mkdirSync(target)
    fs.writeFileSync(path.join(target, 'keep'), 'x')
    fs.symlinkSync(target, at(`gateway-media-${deadPid()}-Lnk123`))
    fs.mkdirSync(at(`gateway-media-${dead}-toolongsuffix`))
    fs.mkdirSync(at(`other-${dead}`))

    const swept = await sweepStaleMediaDirs({ tmp: sweepTmp })
    expect(swept.removed.sort()).toEqual([deadDir, legacyDead].sort())
    expect(swept.staleFiles).toEqual([path.join(live, 'forgotten')])
    expect(fs.readdirSync(live)).toEqual(['in-flight'])
    expect(fs.readdirSync(sweepTmp).sort()).toEqual(
      [
        `gateway-media-${dead}-toolongsuffix`,
        path.basename(live),
        path.basename(at(`other-${dead}`)),
        'precious',
        ...fs.readdirSync(sweepTmp).filter(n => n.endsWith('-Lnk123')),
      ].sort(),
    )
    expect(fs.readFileSync(path.join(target, 'keep'), 'utf8')).toBe('x')
  })
})
