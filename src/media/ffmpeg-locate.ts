/**
 * @module media/ffmpeg-locate
 * Finds the two programs a video thumbnail needs, as absolute paths (ffmpeg then runs with an empty environment,
 * so it has no PATH of its own):
 *   - ffmpeg: `FFMPEG_PATH` when set (it wins, even when it is wrong: an explicit setting is never silently replaced
 *     by another binary), else `ffmpeg` on the gateway's PATH. None: videos are sent with the default thumbnail.
 *   - prlimit (util-linux, in every Debian image): applies FFMPEG_MAX_MEMORY_MB and FFMPEG_MAX_CPU_SECONDS. None
 *     (macOS, some minimal images): ffmpeg still runs, with only the wall-clock time-out.
 * `ffmpegStartupWarnings` says what is missing; main.ts logs it once at start.
 */
import { accessSync, constants, statSync } from 'node:fs'
import path from 'node:path'

export interface FfmpegLocation {
  /** Absolute path of a runnable ffmpeg, or undefined. */
  ffmpeg: string | undefined
  /** Absolute path of prlimit, or undefined. */
  prlimit: string | undefined
  /** The FFMPEG_PATH setting, when set (named in the warning). */
  configured: string | undefined
}

/** A regular file this process may execute. */
function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** `name` looked up like a shell would, in the directories of `pathVar`; only absolute directories count. */
export function findOnPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue
    const file = path.join(dir, name)
    if (isExecutableFile(file)) return file
  }
  return undefined
}

/** Resolves ffmpeg and prlimit for `settings` and the PATH given (the process's own by default). */
export function locateFfmpeg(
  settings: { FFMPEG_PATH?: string | undefined },
  pathVar: string | undefined = process.env.PATH,
): FfmpegLocation {
  const configured = settings.FFMPEG_PATH
  const ffmpeg =
    configured !== undefined
      ? isExecutableFile(path.resolve(configured))
        ? path.resolve(configured)
        : undefined
      : findOnPath('ffmpeg', pathVar)
  return { ffmpeg, prlimit: findOnPath('prlimit', pathVar), configured }
}

/** One line per missing program, each naming the setting that fixes it; empty when all is in place. */
export function ffmpegStartupWarnings(location: FfmpegLocation): string[] {
  if (!location.ffmpeg) {
    return [
      location.configured !== undefined
        ? `FFMPEG_PATH=${location.configured} is not an executable file: videos are sent with the default thumbnail`
        : 'ffmpeg not found on PATH (install it or set FFMPEG_PATH): videos are sent with the default thumbnail',
    ]
  }
  if (!location.prlimit) {
    return [
      'prlimit (util-linux) not found on PATH: ffmpeg runs without FFMPEG_MAX_MEMORY_MB and FFMPEG_MAX_CPU_SECONDS, only with FFMPEG_TIMEOUT_MS',
    ]
  }
  return []
}
