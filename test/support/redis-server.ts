/**
 * A real `redis-server` (Debian's package, as `.ci/run` installs it) for one test file or test: its own free port
 * on loopback, its own temp folder, AOF on (everysec, as docs/cluster.md advises), stopped and removed afterwards.
 *
 * The tests that need one are declared with `describeWithRedis`: without redis-server they are skipped with a loud
 * warning, unless `CI=true`, which makes them required (they fail with how to install it), as the ffmpeg tests do
 * (test/support/ffmpeg.ts). Cluster mode is optional for a user; the default mode needs no Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect } from 'vitest'
import { freePort } from './processes.js'

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server'
const MISSING = `${REDIS_SERVER} not found: install Debian's redis-server (apt-get install -y --no-install-recommends redis-server; .ci/run does it)`

/** Whether this run's tests that need a redis-server run: there is one, or CI=true requires them (and they fail). */
export const redisTestsRun = fs.existsSync(REDIS_SERVER) || process.env.CI === 'true'

let warned = false
/** `describe` for a group of tests that need a redis-server: see the top of this file. */
export function describeWithRedis(name: string, fn: () => void): void {
  if (redisTestsRun) {
    describe(name, fn)
    return
  }
  if (!warned) {
    warned = true
    const line = '!'.repeat(100)
    const file = expect.getState().testPath
    console.warn(
      `\n${line}\n!! SKIPPED: the tests${file ? ` in ${path.relative(process.cwd(), file)}` : ''} that need ` +
        `a redis-server (cluster mode) did not run.\n!! ${MISSING}.\n!! Set CI=true to make them required.\n${line}\n`,
    )
  }
  describe.skip(name, fn)
}

export interface RedisServer {
  url: string
  port: number
  dir: string
  /** The running server's process id (for a bench that reads its CPU from /proc). */
  pid(): number | undefined
  /** Stops it for good and removes its folder. */
  stop(): Promise<void>
  /** Stops it (SIGTERM: it writes its AOF and exits) and keeps its folder, to `up()` it again. */
  down(): Promise<void>
  /** Starts it again on the same port and folder (the data comes back from the AOF). */
  up(): Promise<void>
}

/** Starts redis-server on `port` in `dir`; the child once it is ready, or undefined with its output. */
async function spawnRedis(port: number, dir: string): Promise<{ child?: ChildProcess; out: string }> {
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--daemonize',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString()
  })
  child.stderr!.on('data', (b: Buffer) => {
    out += b.toString()
  })
  const ready = await new Promise<boolean>(resolve => {
    const check = () => {
      if (out.includes('Ready to accept connections')) {
        cleanup()
        resolve(true)
      }
    }
    const onExit = () => {
      cleanup()
      resolve(false)
    }
    const cleanup = () => {
      child.stdout!.off('data', check)
      child.off('exit', onExit)
    }
    child.stdout!.on('data', check)
    child.once('exit', onExit)
    check()
  })
  return ready ? { child, out } : { out }
}

async function ended(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  await once(child, 'exit')
}

export async function startRedisServer(): Promise<RedisServer> {
  if (!fs.existsSync(REDIS_SERVER)) throw new Error(MISSING)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-redis-'))
  for (let attempt = 0; ; attempt++) {
    const port = await freePort()
    let { child, out } = await spawnRedis(port, dir)
    if (!child) {
      if (attempt < 3 && out.includes('Address already in use')) continue
      fs.rmSync(dir, { recursive: true, force: true })
      throw new Error(`redis-server did not start:\n${out}`)
    }
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      dir,
      pid: () => child?.pid,
      async stop() {
        await ended(child)
        fs.rmSync(dir, { recursive: true, force: true })
      },
      async down() {
        await ended(child)
      },
      async up() {
        ;({ child, out } = await spawnRedis(port, dir))
        if (!child) throw new Error(`redis-server did not start again on port ${port}:\n${out}`)
      },
    }
  }
}
