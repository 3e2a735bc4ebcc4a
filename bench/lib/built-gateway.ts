/**
 * @module bench/lib/built-gateway
 * The gateway as an operator runs it (`node dist/main.js`, the image's malloc setting, NODE_ENV=production), for the
 * benches that compare it with Baileys alone or with another build: the `bench/` scripts' usual launcher runs it
 * from source through tsx, whose source-map support makes every stack text dearer than in production.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../test/support/processes.js'
import { startRedisServer } from '../../test/support/redis-server.js'

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
 * `extraEnv` on top (or what it returns for the gateway's own address, for a setting that names it).
 */
export async function startBuiltGateway(
  sandboxUrl: string,
  dir: string,
  extraEnv: Record<string, string> | ((url: string) => Record<string, string>) = {},
  nodeArgs: string[] = [],
  keptDataDir?: string,
): Promise<BuiltGateway> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
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
      ...(typeof extraEnv === 'function' ? extraEnv(url) : extraEnv),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (d: Buffer) => (out = (out + d).slice(-8000))
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
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

/** A built gateway in cluster mode, and the redis-server beside it. */
export interface BuiltClusterNode extends BuiltGateway {
  redisPid: number
}

/**
 * The same gateway as one cluster node: its own fresh redis-server on a free loopback port, and the settings
 * docs/cluster.md requires (REDIS_URL, CLUSTER_SECRET, DATA_KEY, NODE_ID, ADVERTISE_URL), `extraEnv` on top. What
 * it measures against the single node is what cluster mode adds on one node: the store in Redis, the session leases
 * and their renewals, the heartbeats; no request is forwarded, as there is no other node. `stop` stops both.
 */
export async function startBuiltClusterNode(
  sandboxUrl: string,
  dir: string,
  extraEnv: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<BuiltClusterNode> {
  const redis = await startRedisServer()
  try {
    const gateway = await startBuiltGateway(
      sandboxUrl,
      dir,
      url => ({
        REDIS_URL: redis.url,
        CLUSTER_SECRET: randomBytes(32).toString('base64url'),
        DATA_KEY: randomBytes(32).toString('base64'),
        NODE_ID: 'bench-node-1',
        ADVERTISE_URL: url,
        UNPAIRED_PER_CLIENT: '0', // the pairing before the burst is not measured: no creation limit in its way
        ...extraEnv,
      }),
      nodeArgs,
    )
    return {
      ...gateway,
      redisPid: redis.pid()!,
      stop: async () => {
        await gateway.stop()
        await redis.stop()
      },
    }
  } catch (error) {
    await redis.stop()
    throw error
  }
}

/** `tsc -p tsconfig.build.json` in tree `dir` (dist/ as the image builds it), with this tree's compiler. */
export function buildDist(dir: string): void {
  const tsc = path.resolve(import.meta.dirname, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc')
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' })
}
