import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { shardOf } from '../../../src/protocol/shard.js'
import { openLmdbStore } from '../../../src/storage/lmdb-store.js'
import { freePort } from '../../support/processes.js'
import { repoRoot } from '../../support/readme.js'
import { waitFor } from '../../support/wait-for.js'

const started: Array<{ child: ChildProcess; dir: string }> = []

afterEach(async () => {
  for (const { child, dir } of started.splice(0)) {
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGTERM') // the gateway (and `script`, when used) form one process group
      await once(child, 'exit')
    }
    rmSync(dir, { recursive: true, force: true })
  }
})

/** A DATA_DIR with one registered session on each of the two shards, unpaired and past its QR deadline: both
 * shard threads start at boot (a shard with no session has no thread) and delete them, without any connection. */
async function dataDirWithBothShards(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ops-logs-'))
  const store = openLmdbStore(dir)
  for (const shard of [0, 1]) {
    let n = 0
    while (shardOf(`expired-${n}`, 2) !== shard) n++
    await store.putSession({ id: `expired-${n}`, secretHash: 'a'.repeat(64), createdAt: 1, qrDeadline: 2 })
  }
  await store.close()
  return dir
}

/** Starts src/main.ts (through `script` for a terminal) and returns its output once both shards logged. */
async function gatewayOutput(terminal: boolean): Promise<string> {
  const dir = await dataDirWithBothShards()
  const command = `${process.execPath} --import tsx src/main.ts`
  const [file, args] = terminal
    ? ['script', ['-qefc', command, '/dev/null']]
    : [process.execPath, ['--import', 'tsx', 'src/main.ts']]
  const child = spawn(file, args, {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      SHARDS: '2',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'auto',
    },
  })
  started.push({ child, dir })
  let out = ''
  child.stdout!.on('data', d => {
    out += d
  })
  child.stderr!.on('data', d => {
    out += d
  })
  await waitFor(
    'the gateway and both shards to log',
    async () => {
      if (child.exitCode !== null) throw new Error(`gateway exited:\n${out}`)
      return (
        (out.includes('gateway listening') && out.split('restoring sessions of this shard').length === 3) || undefined
      )
    },
    90_000,
  )
  return out
}

describe('log format', () => {
  it('writes JSON lines when stdout is not a terminal, main thread and shard threads alike', async () => {
    const lines = (await gatewayOutput(false)).trim().split('\n')
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow()
    expect(lines.map(l => JSON.parse(l).msg)).toContain('gateway listening')
  }, 120_000)

  it('writes pino-pretty lines when stdout is a terminal, main thread and shard threads alike', async () => {
    const out = await gatewayOutput(true)
    const lines = out.split(/\r?\n/).filter(l => /gateway listening|restoring sessions/.test(l))
    expect(lines).toHaveLength(3)
    for (const line of lines) {
      expect(line.trimStart().startsWith('{')).toBe(false)
      expect(line).toContain('INFO')
    }
  }, 120_000)
})
