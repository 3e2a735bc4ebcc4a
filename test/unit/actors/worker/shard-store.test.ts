/**
 * @module test/unit/actors/worker/shard-store
 * The default mode never loads the Redis client: a shard that opens its store without a store engine (lmdb) has no
 * module of node-redis loaded, while one given cluster mode's engine does. Each case runs in a fresh Node process.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runToExit } from '../../../support/fresh-process.js'
import { redisHarness } from '../../../support/redis-harness.js'
import { describeWithRedis } from '../../../support/redis-server.js'

const root = path.resolve(import.meta.dirname, '../../../..')
const redis = redisHarness()
let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-client-'))
})
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/**
 * Opens a shard's store as a shard thread does, writes a session, and says whether any node-redis file was loaded.
 * With a Redis URL, the shard is given cluster mode's store engine, as a cluster node gives it.
 */
async function redisLoaded(redisUrl: string | undefined): Promise<boolean> {
  const engine = redisUrl && {
    REDIS_URL: redisUrl,
    NODE_ID: 'n',
    CLUSTER_LEASE_TTL_MS: 15000,
    CLUSTER_RENEW_MS: 5000,
  }
  const script = `
    import { createRequire } from 'node:module'
    import pino from 'pino'
    import { openShardStore } from ${JSON.stringify(path.join(root, 'src/actors/worker/shard-store.ts'))}
    const engineSettings = ${JSON.stringify(engine ?? null)}
    const cluster = ${JSON.stringify(path.join(root, 'src/cluster/store/shard-store.ts'))}
    const engine = engineSettings && (await import(cluster)).shardStoreEngine(engineSettings)
    const settings = { DATA_DIR: ${JSON.stringify(dir)}, DATA_KEY: undefined, STORE_FLUSH: 'commit' }
    const shard = await openShardStore(settings, engine ?? undefined, pino({ level: 'silent' }))
    // a platform fact, not a session's rows: those are written only under the session's lease (a run's)
    await shard.store.platformFacts.write('probe', 'stored')
    if ((await shard.store.platformFacts.read('probe')) !== 'stored') throw new Error('the fact was not stored')
    const loaded = Object.keys(createRequire(import.meta.url).cache).some(f => f.includes('/node_modules/@redis/'))
    shard.stop()
    await shard.store.close()
    console.log(JSON.stringify({ loaded }))`
  const run = await runToExit(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script])
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return (JSON.parse(run.stdout.trim()) as { loaded: boolean }).loaded
}

describeWithRedis('the Redis client', () => {
  it('is not loaded by a shard without a store engine (lmdb)', async () => {
    expect(await redisLoaded(undefined)).toBe(false)
    expect(fs.existsSync(path.join(dir, 'gateway.mdb'))).toBe(true)
  })

  it("is loaded by a shard given cluster mode's store engine", async () => {
    expect(await redisLoaded(redis.url)).toBe(true)
  })
})
