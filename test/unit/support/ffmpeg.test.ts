/**
 * The tests' ffmpeg (ffmpeg.ts): the same one the gateway would take, FFMPEG_PATH included, and without one the
 * tests that need it are skipped loudly, or fail under CI=true with how to install it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { findOnPath } from '../../../src/media/ffmpeg-locate.js'
import {
  defaultFfmpeg,
  ffmpegTestMode,
  ffmpegTests,
  missingFfmpegText,
  requiredFfmpegError,
  skippedFfmpegWarning,
} from '../../support/ffmpeg.js'

const INSTALL = 'apt-get install -y --no-install-recommends ffmpeg'

describe("the tests' ffmpeg", () => {
  const before = process.env.FFMPEG_PATH
  afterEach(() => {
    if (before === undefined) delete process.env.FFMPEG_PATH
    else process.env.FFMPEG_PATH = before
  })

  it('FFMPEG_PATH at a missing file is a machine without ffmpeg, as for the gateway', () => {
    process.env.FFMPEG_PATH = '/nonexistent/ffmpeg'
    expect(defaultFfmpeg().ffmpeg).toBeUndefined()
    expect(missingFfmpegText()).toMatch(/^FFMPEG_PATH=\/nonexistent\/ffmpeg is not an executable file: install/)
  })

  ffmpegTests.it('unset, it is the ffmpeg on PATH', () => {
    delete process.env.FFMPEG_PATH
    expect(defaultFfmpeg().ffmpeg).toBe(findOnPath('ffmpeg', process.env.PATH))
    expect(defaultFfmpeg().ffmpeg).toMatch(/^\/.*\/ffmpeg$/)
  })

  it('missing, its tests are skipped with a warning framed in ! lines, or required under CI=true', () => {
    expect(ffmpegTestMode(true, {})).toBe('run')
    expect(ffmpegTestMode(true, { CI: 'true' })).toBe('run')
    expect(ffmpegTestMode(false, {})).toBe('skip')
    expect(ffmpegTestMode(false, { CI: 'true' })).toBe('require')

    const lines = skippedFfmpegWarning('test/unit/media/x.test.ts', {}).trim().split('\n')
    expect(lines[0]).toBe('!'.repeat(100))
    expect(lines.at(-1)).toBe('!'.repeat(100))
    expect(lines.slice(1, -1).every(l => l.startsWith('!! '))).toBe(true)
    expect(lines[1]).toContain('SKIPPED: the tests in test/unit/media/x.test.ts that need a real ffmpeg')
    expect(lines[2]).toBe(
      `!! ffmpeg is not on PATH: install Debian's (${INSTALL}; .ci/run does it; other systems: docs/operating.md "ffmpeg"), or set FFMPEG_PATH to one.`,
    )
    expect(lines[3]).toBe('!! Set CI=true to make them required.')

    const failure = requiredFfmpegError({ CI: 'true' }).message
    expect(failure).toContain(INSTALL)
    expect(failure).toContain('CI=true makes the tests that need ffmpeg required')
  })
})
