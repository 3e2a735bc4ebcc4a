/**
 * @module media/ffmpeg
 * Locates the ffmpeg binary shipped by `@ffmpeg-installer/ffmpeg` and runs it without a shell. npm 11 blocks that
 * package's `chmod u+x` install script unless approved, so the binary may arrive non-executable: we try to chmod it
 * once, and report `undefined` when it still cannot run (callers fall back to a default thumbnail).
 */
import { spawn } from 'node:child_process'
import { access, chmod, constants } from 'node:fs/promises'

let cached: Promise<string | undefined> | undefined

/** Path of a runnable ffmpeg, or undefined. Resolved once per process. */
export function ffmpegPath(): Promise<string | undefined> {
  cached ??= (async () => {
    // FFMPEG_PATH (a setting, see config.ts) points at a system ffmpeg, e.g. the container's apt package.
    const configured = process.env.FFMPEG_PATH
    if (configured) return access(configured, constants.X_OK).then(() => configured, () => undefined)
    try {
      const mod = (await import('@ffmpeg-installer/ffmpeg')) as { path?: string; default?: { path?: string } }
      const file = mod.path ?? mod.default?.path
      if (!file) return undefined
      try {
        await access(file, constants.X_OK)
      } catch {
        await chmod(file, 0o755)
        await access(file, constants.X_OK)
      }
      return file
    } catch {
      return undefined
    }
  })()
  return cached
}

/** Runs ffmpeg with `args`; resolves stdout, rejects with stderr's tail on a non-zero exit or after `timeoutMs`. */
export async function runFfmpeg(args: string[], timeoutMs = 30_000): Promise<Buffer> {
  const bin = await ffmpegPath()
  if (!bin) throw new Error('ffmpeg is not available')
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let err = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => { err = (err + c.toString()).slice(-2000) })
    child.on('error', e => { clearTimeout(timer); reject(e) })
    child.on('close', code => {
      clearTimeout(timer)
      if (code === 0) resolve(Buffer.concat(out))
      else reject(new Error(`ffmpeg exited with ${code}: ${err.trim().split('\n').pop() ?? ''}`))
    })
  })
}
