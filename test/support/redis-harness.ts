/**
 * @module test/support/redis-harness
 * The Redis of a test file that reads or writes Redis itself: a redis-server of its own (./redis-server.ts) and a
 * raw connection to it, started before the file's tests and stopped after them, every key removed (FLUSHALL) after
 * each test. Call it at the top of the file (or of a `describeWithRedis` group), before the helpers whose after-each
 * cleanup must run first: vitest runs after-each hooks last registered first.
 */
import { afterAll, afterEach, beforeAll } from 'vitest'
import { connectRedis, type RedisConnection } from '../../src/cluster/store/connection.js'
import { redisTestsRun, startRedisServer, type RedisServer } from './redis-server.js'

export interface RedisHarness {
  /** The server's `redis://` URL. */
  readonly url: string
  readonly server: RedisServer
  /** A connection of the test's own, to read what the code under test wrote, or to change it behind its back. */
  readonly conn: RedisConnection
}

export function redisHarness(): RedisHarness {
  let server: RedisServer | undefined
  let conn: RedisConnection | undefined
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('redisHarness: the redis-server is not started (used outside a test?)')
    return value
  }
  // Without a redis-server (and without CI=true) the tests that need one are skipped (describeWithRedis).
  beforeAll(async () => {
    if (!redisTestsRun) return
    server = await startRedisServer()
    conn = await connectRedis(server.url)
  })
  afterAll(async () => {
    await conn?.close()
    await server?.stop()
  })
  afterEach(async () => {
    await conn?.command(['FLUSHALL'])
  })
  return {
    get url() {
      return started(server).url
    },
    get server() {
      return started(server)
    },
    get conn() {
      return started(conn)
    },
  }
}
