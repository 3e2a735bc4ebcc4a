/**
 * What an idle gateway holds (memory, CPU): the HTTP thread never loads the platform client (Baileys, libsignal,
 * protobuf), a shard starts its thread only when it gets a session, so a gateway with no session is one V8
 * isolate, and a shard thread loads the image library only when a session sends an image. Seen from outside, the way an operator would: modules each thread loaded (a preload that records them),
 * and `gateway_shard_threads` on /metrics.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { startGateway, startSandbox, type GatewayProcess, type SandboxProcess } from '../../support/processes.js'
import { waitFor } from '../../support/wait-for.js'
import { parseProm } from '../../support/prom-text.js'

const tracer = fileURLToPath(new URL('../../support/system/module-trace.mjs', import.meta.url))
const PLATFORM = /node_modules\/(@whiskeysockets\/baileys|libsignal|protobufjs)\//
const IMAGES = /node_modules\/(sharp|@img)\//

const started: Array<{ gateway: GatewayProcess; dirs: string[] }> = []
let sandbox: SandboxProcess | undefined
afterEach(async () => {
  for (const { gateway, dirs } of started.splice(0)) {
    await gateway.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
  await sandbox?.stop()
  sandbox = undefined
})

async function tracedGateway(dataDir?: string) {
  const traceDir = mkdtempSync(path.join(os.tmpdir(), 'module-trace-'))
  const dir = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'lean-threads-'))
  sandbox ??= await startSandbox()
  const gateway = await startGateway(
    {
      SANDBOX_URL: sandbox.url,
      DATA_DIR: dir,
      SHARDS: '2',
      SESSION_CREATE_PER_MINUTE: '0',
      MODULE_TRACE_DIR: traceDir,
    },
    ['--import', tracer],
  )
  started.push({ gateway, dirs: dataDir ? [traceDir] : [traceDir, dir] })
  /** Module URLs loaded so far, by thread id (0 = the main thread). */
  const modules = (): Map<number, string[]> =>
    new Map(
      readdirSync(traceDir).map(t => [Number(t), readFileSync(path.join(traceDir, t), 'utf8').trim().split('\n')]),
    )
  const shardThreads = async (): Promise<number[]> => {
    const samples = parseProm(await (await fetch(`${gateway.url}/metrics`)).text())
    return ['0', '1'].map(
      shard => samples.find(s => s.name === 'gateway_shard_threads' && s.labels.shard === shard)?.value ?? NaN,
    )
  }
  return { gateway, dir, modules, shardThreads }
}

describe('an idle gateway', () => {
  it('runs no shard thread and no platform client until a session needs one', async () => {
    const { gateway, modules, shardThreads } = await tracedGateway()
    expect(await shardThreads()).toEqual([0, 0])
    const loaded = modules()
    expect([...loaded.keys()]).toEqual([0]) // one thread: the HTTP one
    const main = loaded.get(0)!
    expect(main.some(url => url.includes('/src/http/app.ts'))).toBe(true) // the trace sees the HTTP modules...
    expect(main.filter(url => PLATFORM.test(url))).toEqual([]) // ...and no platform client among them

    // A new session starts its shard's thread (and only that one), which loads the platform client.
    const res = await fetch(`${gateway.url}/session`, { method: 'POST' })
    expect(res.status).toBe(200)
    const session = (await res.json()) as { id: string; sessionId: string }
    await waitFor('the QR of the new session', async () => {
      const body = (await (
        await fetch(`${gateway.url}/session`, { headers: { id: session.id, 'session-id': session.sessionId } })
      ).json()) as { qrcode: string }
      return body.qrcode || undefined
    })
    const threads = await shardThreads()
    expect(threads.toSorted()).toEqual([0, 1])
    // More sessions go to the thread already running (below SHARD_FILL): still one shard thread
    for (let i = 0; i < 5; i++) expect((await fetch(`${gateway.url}/session`, { method: 'POST' })).status).toBe(200)
    expect(await shardThreads()).toEqual(threads)
    const shardModules = [...modules().entries()].filter(([thread]) => thread !== 0)
    expect(shardModules).toHaveLength(1)
    expect(shardModules[0]![1].some(url => PLATFORM.test(url))).toBe(true)
    // ...but not the image library (libvips, ~14 MB): it loads with the first image a session sends (media/sharp.ts)
    expect(shardModules[0]![1].filter(url => IMAGES.test(url))).toEqual([])
    // The HTTP thread still has none: serving the session did not pull the platform in.
    expect(
      modules()
        .get(0)!
        .filter(url => PLATFORM.test(url)),
    ).toEqual([])
  }, 120_000)

  it('starts at boot the threads of the shards that hold stored sessions, and is ready once they restored', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lean-threads-'))
    try {
      const first = await tracedGateway(dataDir)
      const res = await fetch(`${first.gateway.url}/session`, { method: 'POST' })
      expect(res.status).toBe(200)
      const threads = await waitFor("the session's shard thread", async () => {
        const t = await first.shardThreads()
        return t.includes(1) ? t : undefined
      })
      await first.gateway.stop()
      started.splice(0)

      // startGateway waits for /readyz: the shard with the stored session restored it.
      const second = await tracedGateway(dataDir)
      expect(await second.shardThreads()).toEqual(threads)
      expect(existsSync(dataDir)).toBe(true)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
