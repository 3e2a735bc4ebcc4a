/**
 * @module bench/lib/built-gateway
 * The gateway as an operator runs it (`node dist/main.js`, the image's malloc setting, NODE_ENV=production), for the
 * benches that compare it with Baileys alone or with another build: the `bench/` scripts' usual launcher runs it
 * from source through tsx, whose source-map support makes every stack text dearer than in production.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../test/support/processes.js'

/** The image's malloc setting (Dockerfile), as the side-by-side bench runs the gateway. */
export const IMAGE_ENV = { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072', NODE_ENV: 'production' }

export interface BuiltGateway {
  url: string
  pid: number
  child: ChildProcess
  /** SIGTERM, wait for the exit (a `--cpu-prof` profile is written then), remove the data folder (unless given). */
  stop(): Promise<void>
}

/**
 * `node [nodeArgs] dist/main.js` of tree `dir` on a fresh data folder (or `keptDataDir`, a fleet the caller keeps),
 * ready (`/readyz`), with the side-by-side bench's settings (LOG_LEVEL=warn, per-session send limit off) and
 * `extraEnv` on top.
 */
export async function startBuiltGateway(
  sandboxUrl: string,
  dir: string,
  extraEnv: Record<string, string> = {},
  nodeArgs: string[] = [],
  keptDataDir?: string,
): Promise<BuiltGateway> {
  const port = await freePort()
  const dataDir = keptDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'bench-built-gateway-'))
  let out = ''
  const child = spawn(process.execPath, [...nodeArgs, 'dist/main.js'], {
    cwd: dir,
    env: {
      ...process.env,
      ...IMAGE_ENV,
      SANDBOX_URL: sandboxUrl,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SEND_RATE_PER_SECOND: '0',
      SEND_BURST: '100000',
      SESSION_CREATE_PER_MINUTE: '0',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (d: Buffer) => (out = (out + d).slice(-8000))
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const url = `http://127.0.0.1:${port}`
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null) throw new Error(`gateway exited: ${out}`)
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200) break
    if (Date.now() > deadline) throw new Error(`gateway did not start: ${out}`)
    await new Promise(r => setTimeout(r, 200))
  }
  return {
    url,
    pid: child.pid!,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await once(child, 'exit')
      }
      if (keptDataDir === undefined) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** `tsc -p tsconfig.build.json` in tree `dir` (dist/ as the image builds it), with this tree's compiler. */
export function buildDist(dir: string): void {
  const tsc = path.resolve(import.meta.dirname, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc')
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' })
}
