/**
 * ffmpeg runs on tenants' untrusted videos contained (src/media/ffmpeg.ts, SECURITY.md "Decoding untrusted media"):
 * an empty environment, only the file protocol, only the video demuxers, a wall-clock time-out, memory and CPU caps.
 * Stand-in ffmpegs are small shell scripts; the refusals are checked with the real (Debian) ffmpeg (skipped without
 * one, or failing under CI=true: test/support/ffmpeg.ts).
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadSettings } from '../../../src/gateway-settings.js'
import { FfmpegFailure, runFfmpeg } from '../../../src/media/ffmpeg.js'
import { defaultThumbnail, thumbnailFromVideo, VIDEO_FORMAT_WHITELIST } from '../../../src/media/thumbnail.js'
import { prepareSendMedia, type SendMediaDeps } from '../../../src/media/send-media.js'
import { defaultFfmpeg, ffmpegTests, makeTestClip, makeWithFfmpeg } from '../../support/ffmpeg.js'
import { onLoopback, type OnLoopback } from '../../support/loopback-server.js'

const MAX_PIXELS = loadSettings({}).MEDIA_MAX_PIXELS

let dir: string
let clip: string
let served: OnLoopback<http.Server>
let base: string
let requests: string[]

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-test-'))
  clip = path.join(dir, 'clip.mp4')
  // without ffmpeg it is a stand-in, which only the tests that never decode it use
  await makeTestClip(clip)
  requests = []
  served = await onLoopback(
    http.createServer((req, res) => {
      requests.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'video/mp4' }).end(readFileSync(clip))
    }),
  )
  base = served.url
})
afterAll(async () => {
  await served.close()
  await rm(dir, { recursive: true, force: true })
})

/** An executable shell script standing in for ffmpeg. */
async function script(name: string, body: string): Promise<string> {
  const file = path.join(dir, name)
  await writeFile(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 })
  return file
}

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e,
  )

describe('what ffmpeg is given', () => {
  const secrets = { DATA_KEY: 'a'.repeat(64), CREATE_SESSION_TOKEN: 'a-token-of-at-least-16-chars' }
  beforeEach(() => {
    Object.assign(process.env, secrets)
  })
  afterEach(() => {
    for (const k of Object.keys(secrets)) delete process.env[k]
  })

  it("an empty environment: none of the gateway's secrets, not even PATH", async () => {
    const envFile = path.join(dir, 'env.txt')
    const fake = await script('dump-env', `/usr/bin/env > '${envFile}'\nexit 1`)
    expect(process.env.DATA_KEY).toBe(secrets.DATA_KEY) // the test process itself has them
    await failureOf(thumbnailFromVideo(clip, defaultFfmpeg({ ffmpeg: fake }), MAX_PIXELS))
    const env = readFileSync(envFile, 'utf8')
    expect(env).not.toContain('DATA_KEY')
    expect(env).not.toContain('CREATE_SESSION_TOKEN')
    expect(env).not.toMatch(/^PATH=/m)
    // what is left is what /bin/sh sets for itself (PWD at most)
    expect(
      env
        .split('\n')
        .filter(Boolean)
        .every(line => line.startsWith('PWD=')),
    ).toBe(true)
  })

  it('the protocol and format whitelists, one thread, before the input', async () => {
    const argsFile = path.join(dir, 'args.txt')
    const fake = await script('dump-args', `printf '%s\\n' "$@" > '${argsFile}'\nexit 1`)
    await failureOf(thumbnailFromVideo(clip, defaultFfmpeg({ ffmpeg: fake }), MAX_PIXELS))
    const args = readFileSync(argsFile, 'utf8').trim().split('\n')
    const input = args.indexOf('-i')
    expect(args[input + 1]).toBe(clip)
    const before = args.slice(0, input)
    const value = (flag: string) => before[before.indexOf(flag) + 1]
    expect(value('-protocol_whitelist')).toBe('file')
    expect(value('-format_whitelist')).toBe(VIDEO_FORMAT_WHITELIST)
    expect(value('-threads')).toBe('1')
  })
})

ffmpegTests.describe("what ffmpeg refuses (Debian's ffmpeg)", () => {
  it('an http input: nothing is fetched', async () => {
    requests.length = 0
    // the same server serves the clip: without the protocol whitelist this would make a thumbnail
    const err = await failureOf(thumbnailFromVideo(`${base}/clip.mp4`, defaultFfmpeg(), MAX_PIXELS))
    expect(err).toBeInstanceOf(FfmpegFailure)
    expect((err as FfmpegFailure).code).toBe('FFMPEG_EXIT')
    expect(requests).toEqual([])
  })

  it('a file in a non-video format that names other files (ffconcat): not opened', async () => {
    // a real video beside it: without the format whitelist, ffmpeg follows the list and makes a thumbnail of it
    const list = path.join(dir, 'list.mp4')
    await writeFile(list, "ffconcat version 1.0\nfile 'clip.mp4'\n")
    const err = await failureOf(thumbnailFromVideo(list, defaultFfmpeg(), MAX_PIXELS))
    expect((err as FfmpegFailure).code).toBe('FFMPEG_EXIT')
  })

  it('the formats the whitelist keeps still work: MP4, WebM, AVI, MPEG-TS', async () => {
    for (const [ext, codec] of [
      ['webm', 'libvpx'],
      ['avi', 'mpeg4'],
      ['ts', 'mpeg2video'],
    ] as const) {
      const file = path.join(dir, `clip.${ext}`)
      await makeWithFfmpeg(['-i', clip, '-c:v', codec, '-y', file])
      const meta = await sharp(await thumbnailFromVideo(file, defaultFfmpeg(), MAX_PIXELS)).metadata()
      expect(meta.width, ext).toBe(72)
    }
    expect((await sharp(await thumbnailFromVideo(clip, defaultFfmpeg(), MAX_PIXELS)).metadata()).width).toBe(72)
  })
})

describe('limits', () => {
  it('a hanging ffmpeg is killed at the time-out, with what it started', async () => {
    const pidFile = path.join(dir, 'sleep.pid')
    const hang = await script('hang', `sleep 60 &\necho $! > '${pidFile}'\nwait`)
    const started = Date.now()
    const err = await failureOf(thumbnailFromVideo(clip, defaultFfmpeg({ ffmpeg: hang, timeoutMs: 500 }), MAX_PIXELS))
    expect((err as FfmpegFailure).code).toBe('FFMPEG_TIMEOUT')
    expect((err as Error).message).toContain('FFMPEG_TIMEOUT_MS')
    expect(Date.now() - started).toBeLessThan(5_000)
    // the script's own child (the process group) is gone too, not left sleeping
    const pid = readFileSync(pidFile, 'utf8').trim()
    await new Promise(r => setTimeout(r, 200))
    const state = existsSync(`/proc/${pid}/stat`)
      ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
      : 'gone'
    expect(['gone', 'Z']).toContain(state)
  })

  it('a busy ffmpeg is killed by the kernel past FFMPEG_MAX_CPU_SECONDS', async () => {
    expect(defaultFfmpeg().prlimit).toBeTruthy()
    const spin = await script('spin', 'while :; do :; done')
    const started = Date.now()
    const err = await failureOf(runFfmpeg([], defaultFfmpeg({ ffmpeg: spin, maxCpuSeconds: 1, timeoutMs: 30_000 })))
    expect((err as FfmpegFailure).code).toBe('FFMPEG_KILLED')
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  ffmpegTests.it('an ffmpeg over FFMPEG_MAX_MEMORY_MB fails instead of taking the memory', async () => {
    // 64 MB of address space is not even enough to load Debian's ffmpeg; the default 1024 MB decodes (test above)
    const err = await failureOf(
      thumbnailFromVideo(clip, defaultFfmpeg({ maxMemoryBytes: 64 * 1024 * 1024 }), MAX_PIXELS),
    )
    expect((err as FfmpegFailure).code).toBe('FFMPEG_EXIT')
  })
})

describe('a send with a video when ffmpeg cannot make the thumbnail', () => {
  let tempDir: string
  beforeEach(async () => {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-send-'))
  })
  afterEach(async () => {
    await rm(tempDir, { recursive: true, force: true })
  })

  const prepare = async (ffmpeg: SendMediaDeps['ffmpeg']) => {
    const warnings: unknown[] = []
    const deps: SendMediaDeps = {
      download: { maxBytes: 10_000_000, timeoutMs: 20_000, maxRedirects: 2, blockPrivate: false, tempDir },
      ffmpeg,
      maxPixels: MAX_PIXELS,
      logger: {
        warn: (obj: unknown) => {
          warnings.push(obj)
        },
      } as SendMediaDeps['logger'],
    }
    const prepared = await prepareSendMedia(
      { type: 'video', video: { url: `${base}/clip.mp4`, mimetype: 'video/mp4', duration: 1 } },
      deps,
    )
    const thumb = Buffer.from(prepared.jpegThumbnail!, 'base64')
    await prepared.dispose()
    expect(await readdir(tempDir)).toEqual([])
    return { thumb, warnings }
  }

  it('a hanging ffmpeg: the video goes with the default thumbnail once the time-out kills it', async () => {
    const hang = await script('hang-send', 'exec sleep 60')
    const started = Date.now()
    const { thumb, warnings } = await prepare(defaultFfmpeg({ ffmpeg: hang, timeoutMs: 500 }))
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(thumb.equals(await defaultThumbnail())).toBe(true)
    expect(warnings).toEqual([expect.objectContaining({ err: expect.objectContaining({ code: 'FFMPEG_TIMEOUT' }) })])
  })

  it('no ffmpeg at all: the default thumbnail, and no warning per video (the start warned once)', async () => {
    const { thumb, warnings } = await prepare(defaultFfmpeg({ ffmpeg: undefined }))
    expect(thumb.equals(await defaultThumbnail())).toBe(true)
    expect(warnings).toEqual([])
    await expect(runFfmpeg(['-version'], defaultFfmpeg({ ffmpeg: undefined }))).rejects.toMatchObject({
      code: 'FFMPEG_MISSING',
    })
  })
})
