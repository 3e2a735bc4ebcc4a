/**
 * @module test/system/cluster/redis-mode
 * One gateway process in cluster mode (REDIS_URL, DATA_KEY) on its own redis-server and the sandbox, over HTTP
 * only: a session pairs, a text reaches the phone and decrypts; everything lives in Redis (DATA_DIR holds no store
 * file) under the session's lease; after a SIGTERM restart and after a kill -9 the session comes back connected
 * from Redis without a new scan, and sends again. When another node takes the lease, the gateway stops the
 * session without logging out (requests get 503 "moving"), and runs it again, still paired, once the lease is free.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type Gateway,
  inbox,
  launchGateway,
  pair,
  reply,
  startWorld,
  withSession,
  type Session,
} from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'
import { describeWithRedis, startRedisServer, type RedisServer } from '../../support/redis-server.js'
import { connectRedis, text, type RedisConnection } from '../../../src/cluster/store/connection.js'
import { REGISTRY_KEY, sessionKeys } from '../../../src/cluster/store/keys.js'
import { acquireLease, releaseLease } from '../../../src/cluster/store/lease.js'

const ALICE = '15550000031'
const BOB = '15550000032'

describeWithRedis('cluster mode: one gateway on Redis', () => {
  let world: Awaited<ReturnType<typeof startWorld>>
  let redis: RedisServer
  let raw: RedisConnection
  let gw: Gateway
  let session: Session
  const env = () => ({
    REDIS_URL: redis.url,
    NODE_ID: 'node-1',
    DATA_KEY: KEY,
    CLUSTER_SECRET: randomBytes(32).toString('base64url'),
    CLUSTER_LEASE_TTL_MS: '10000',
    CLUSTER_RENEW_MS: '2000',
    RECONNECT_MIN_MS: '200',
    RECONNECT_MAX_MS: '1000',
  })
  const KEY = randomBytes(32).toString('base64')

  beforeAll(async () => {
    redis = await startRedisServer()
    raw = await connectRedis(redis.url)
    world = await startWorld({
      accounts: [
        { phone: ALICE, name: 'Alice' },
        { phone: BOB, name: 'Bob' },
      ],
    })
    gw = await launchGateway(world.sandbox.url, world.dataDir, env())
  }, 120_000)

  afterAll(async () => {
    await gw?.proc.stop()
    await raw?.close()
    await world?.cleanup()
    await redis?.stop()
  })

  const send = async (words: string) => {
    const sent = await reply(
      gw.api.POST('/message', withSession(session, { body: { phone: BOB, type: 'text', text: words } })),
    )
    expect(sent.status).toBe(200)
    const got = await waitFor(`"${words}" in Bob's inbox`, async () =>
      (await inbox(world.sandbox.url, BOB)).find(m => m.id === sent.body.messageId),
    )
    expect(got).toMatchObject({ type: 'text', text: words, from: ALICE })
  }
  const connected = () =>
    waitFor(
      'the session connected',
      async () => {
        const r = await gw.session(session)
        return r.status === 200 && r.body.isConnected ? r.body : undefined
      },
      90_000,
    )
  const lease = async () => text(await raw.command(['GET', sessionKeys(session.id).lease]))

  it("pairs and sends with everything in Redis, under the session's lease", async () => {
    session = await gw.createSession()
    await pair(gw, world.sandbox.url, session, ALICE)
    await send('hello from redis')
    expect(fs.existsSync(path.join(world.dataDir, 'gateway.mdb'))).toBe(false)
    expect(Number(await raw.command(['HEXISTS', REGISTRY_KEY, session.id]))).toBe(1)
    expect(Number(await raw.command(['EXISTS', sessionKeys(session.id).creds]))).toBe(1)
    expect(Number(await raw.command(['HLEN', sessionKeys(session.id).keys]))).toBeGreaterThan(0)
    expect(await lease()).toMatch(/^node-1\|\d+$/)
  }, 150_000)

  it('comes back connected from Redis after a SIGTERM restart, and sends', async () => {
    const before = Number((await lease())!.split('|')[1])
    expect(await gw.proc.stop('SIGTERM')).toBe(0)
    expect(await lease()).toBeUndefined() // a clean stop gives the lease back
    gw = await launchGateway(world.sandbox.url, world.dataDir, env())
    const back = await connected()
    expect(back.generatedId).toMatch(new RegExp(`^${ALICE}:`))
    expect(Number((await lease())!.split('|')[1])).toBeGreaterThan(before)
    await send('after a clean restart')
  }, 150_000)

  it('comes back connected after kill -9, and what it sends still decrypts at the phone', async () => {
    await gw.proc.stop('SIGKILL')
    expect(await lease()).toMatch(/^node-1\|/) // left behind; the same node takes it over with a new epoch
    gw = await launchGateway(world.sandbox.url, world.dataDir, env())
    await connected()
    await send('after kill -9')
  }, 150_000)

  it('steps down without logging out when another node holds the lease, and runs the session again once it is free', async () => {
    // Another node takes the lease over (as after this one was paused past its TTL); it never heartbeats, so
    // node-1 cannot forward to it: the session is "moving" until the lease is free.
    await raw.command(['DEL', sessionKeys(session.id).lease])
    const epoch = await acquireLease(raw, session.id, 'node-2', 60_000)
    const moving = { statusCode: 503, message: 'session is moving to another node, retry in 1 s' }
    const stepped = await waitFor(
      'node-1 stepped down',
      async () => {
        const r = await gw.session(session)
        return r.status === 503 ? r : undefined
      },
      30_000,
    )
    expect(stepped.body).toEqual(moving)
    const down = await reply(
      gw.api.POST('/message', withSession(session, { body: { phone: BOB, type: 'text', text: 'not now' } })),
    )
    expect(down).toEqual({ status: 503, body: moving })
    expect(await lease()).toBe(`node-2|${epoch}`) // node-1 did not take it back while it lived
    await releaseLease(raw, session.id, { node: 'node-2', epoch })
    const back = await connected() // no new QR: the device was never logged out
    expect(back.generatedId).toMatch(new RegExp(`^${ALICE}:`))
    expect(Number((await lease())!.split('|')[1])).toBeGreaterThan(epoch)
    await send('after the lease came back')
  }, 150_000)
})
