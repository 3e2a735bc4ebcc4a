/**
 * @module media/ffmpeg
 * Runs ffmpeg on tenants' untrusted files, contained (SECURITY.md "Decoding untrusted media"):
 *   - no shell, and an empty environment: the gateway's own (`DATA_KEY`, `CREATE_SESSION_TOKEN`...) never reaches a
 *     decoder that a crafted file might take over;
 *   - through `prlimit` when there is one: an address-space cap (FFMPEG_MAX_MEMORY_MB) and a CPU-time cap
 *     (FFMPEG_MAX_CPU_SECONDS; the kernel kills it past that);
 *   - a wall-clock time-out (FFMPEG_TIMEOUT_MS) that kills its whole process group (FFMPEG_PATH may be a wrapper
 *     script whose children would otherwise outlive it);
 * which input protocols and formats it may open is the caller's part of the arguments (see thumbnail.ts).
 * Every failure is an `FfmpegFailure`; thumbnail callers fall back to the default thumbnail on any of them.
 */
import { spawn } from 'node:child_process'
import { locateFfmpeg } from './ffmpeg-locate.js'
import type { MediaSettings } from './settings.js'

export interface FfmpegOptions {
  /** Absolute path of ffmpeg; undefined when none was found (see ffmpeg-locate.ts). */
  ffmpeg: string | undefined
  /** Absolute path of prlimit; undefined = no memory or CPU cap. */
  prlimit: string | undefined
  timeoutMs: number
  maxMemoryBytes: number
  maxCpuSeconds: number
}

export type FfmpegFailureCode = 'FFMPEG_MISSING' | 'FFMPEG_TIMEOUT' | 'FFMPEG_KILLED' | 'FFMPEG_EXIT' | 'FFMPEG_SPAWN'

/** Why a run of ffmpeg gave no output. Internal: never an HTTP answer (a failed thumbnail is the default one). */
export class FfmpegFailure extends Error {
  override readonly name = 'FfmpegFailure'
  constructor(
    readonly code: FfmpegFailureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

type FfmpegSettings = Pick<
  MediaSettings,
  'FFMPEG_PATH' | 'FFMPEG_TIMEOUT_MS' | 'FFMPEG_MAX_MEMORY_MB' | 'FFMPEG_MAX_CPU_SECONDS'
>

/** Looked up once per thread (each shard thread builds its own) for the same settings. */
let cached: { key: string; options: FfmpegOptions } | undefined

/** FfmpegOptions from the gateway settings; ffmpeg and prlimit are looked up on the process's PATH. */
export function ffmpegOptionsFromSettings(settings: FfmpegSettings): FfmpegOptions {
  const key = JSON.stringify([
    settings.FFMPEG_PATH,
    settings.FFMPEG_TIMEOUT_MS,
    settings.FFMPEG_MAX_MEMORY_MB,
    settings.FFMPEG_MAX_CPU_SECONDS,
    process.env.PATH,
  ])
  if (cached?.key !== key) {
    const { ffmpeg, prlimit } = locateFfmpeg(settings)
    cached = {
      key,
      options: {
        ffmpeg,
        prlimit,
        timeoutMs: settings.FFMPEG_TIMEOUT_MS,
        maxMemoryBytes: settings.FFMPEG_MAX_MEMORY_MB * 1024 * 1024,
        maxCpuSeconds: settings.FFMPEG_MAX_CPU_SECONDS,
      },
    }
  }
  return cached.options
}

/** The program and argv actually spawned: ffmpeg itself, or prlimit setting the caps and then exec'ing ffmpeg. */
function ffmpegCommand(args: readonly string[], options: FfmpegOptions & { ffmpeg: string }): [string, string[]] {
  if (!options.prlimit) return [options.ffmpeg, [...args]]
  return [
    options.prlimit,
    [`--as=${options.maxMemoryBytes}`, `--cpu=${options.maxCpuSeconds}`, '--', options.ffmpeg, ...args],
  ]
}

/** Runs ffmpeg with `args`; resolves its stdout, rejects with an FfmpegFailure (stderr's last line in the message). */
export function runFfmpeg(args: readonly string[], options: FfmpegOptions): Promise<Buffer> {
  const { ffmpeg } = options
  if (!ffmpeg) return Promise.reject(new FfmpegFailure('FFMPEG_MISSING', 'ffmpeg is not available'))
  const [file, argv] = ffmpegCommand(args, { ...options, ffmpeg })
  return new Promise((resolve, reject) => {
    // detached: its own process group, so a time-out kills whatever it started too
    const child = spawn(file, argv, { env: {}, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    const out: Buffer[] = []
    let err = ''
    let settled = false
    const settle = (fail?: FfmpegFailure) => {
      if (settled) return false
      settled = true
      clearTimeout(timer)
      if (fail) reject(fail)
      else resolve(Buffer.concat(out))
      return true
    }
    const timer = setTimeout(() => {
      killGroup(child.pid)
      // Settle now: a grandchild still holding the pipes would delay 'close' for as long as it lives.
      settle(
        new FfmpegFailure(
          'FFMPEG_TIMEOUT',
          `ffmpeg killed after the ${options.timeoutMs} ms time-out (FFMPEG_TIMEOUT_MS)`,
        ),
      )
      child.stdout.destroy()
      child.stderr.destroy()
    }, options.timeoutMs)
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-2000)
    })
    child.on('error', e =>
      settle(new FfmpegFailure('FFMPEG_SPAWN', `ffmpeg could not start: ${e.message}`, { cause: e })),
    )
    child.on('close', (code, signal) => {
      const detail = err.trim().split('\n').pop() ?? ''
      if (signal) {
        // Not our time-out (that settled already): the kernel, past FFMPEG_MAX_CPU_SECONDS, or someone else.
        settle(
          new FfmpegFailure(
            'FFMPEG_KILLED',
            `ffmpeg killed by ${signal} (FFMPEG_MAX_CPU_SECONDS or FFMPEG_MAX_MEMORY_MB)`,
          ),
        )
      } else if (code !== 0) {
        settle(new FfmpegFailure('FFMPEG_EXIT', `ffmpeg exited with ${code}: ${detail}`))
      } else {
        settle()
      }
    })
  })
}

/** SIGKILL to the process group `pid` leads; ignores a group already gone. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    /* already exited */
  }
}
