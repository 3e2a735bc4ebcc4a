/**
 * @module test/unit/storage/open-store
 * The default mode never loads the Redis client: a process that opens its store without REDIS_URL (lmdb) has no
 * module of node-redis loaded, while one with REDIS_URL does. Each case runs in a fresh Node process.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runToExit } from '../../support/fresh-process.js'
import { redisHarness } from '../../support/redis-harness.js'
import { describeWithRedis } from '../../support/redis-server.js'

const root = path.resolve(import.meta.dirname, '../../..')
const redis = redisHarness()
let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-client-'))
})
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Opens a store as the gateway does, writes a session, and says whether any node-redis file was loaded. */
async function redisLoaded(redisUrl: string | undefined): Promise<boolean> {
  const script = `
    import { createRequire } from 'node:module'
    import { openStore } from ${JSON.stringify(path.join(root, 'src/storage/open-store.ts'))}
    const { store, leases } = openStore({ REDIS_URL: ${JSON.stringify(redisUrl)}, DATA_KEY: undefined, NODE_ID: 'n',
      CLUSTER_LEASE_TTL_MS: 15000, CLUSTER_RENEW_MS: 5000, DATA_DIR: ${JSON.stringify(dir)} })
    await leases?.acquire('s') // cluster mode writes a session's rows only under its lease
    await store.putSession({ id: 's', secretHash: 'h', createdAt: 1, qrDeadline: null })
    const loaded = Object.keys(createRequire(import.meta.url).cache).some(f => f.includes('/node_modules/@redis/'))
    leases?.stop()
    await store.close()
    console.log(JSON.stringify({ loaded, sessions: 1 }))`
  const run = await runToExit(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script])
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return (JSON.parse(run.stdout.trim()) as { loaded: boolean }).loaded
}

describeWithRedis('the Redis client', () => {
  it('is not loaded without REDIS_URL', async () => {
    expect(await redisLoaded(undefined)).toBe(false)
    expect(fs.existsSync(path.join(dir, 'gateway.mdb'))).toBe(true)
  })

  it('is loaded with REDIS_URL', async () => {
    expect(await redisLoaded(redis.url)).toBe(true)
  })
})
