/**
 * Settings that switch a protection off, or leave one out, start the gateway, but never silently: each is one warn
 * line in the start-up log of the real process (a tenant's proxy allowed on private addresses; cluster mode without
 * DATA_KEY, or forwarding over plain http without CLUSTER_REQUIRE_TLS). A Node below package.json's engines is
 * refused instead (test/system/build/old-node.test.ts). A figure the gateway works out for itself is said there too:
 * MAX_SESSIONS unset is what the machine holds, one info line with the figure, both limits' figures and which one
 * bound it (the derivation's rules: test/unit/actors/session-capacity.test.ts); set by the operator, nothing is said.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { machineSessionCapacity } from '../../../src/actors/session-capacity.js'
import { startGateway, type GatewayProcess } from '../../support/processes.js'
import { describeWithRedis, startRedisServer, type RedisServer } from '../../support/redis-server.js'
import { waitFor } from '../../support/wait-for.js'

const running: Array<{ gateway: GatewayProcess; dir: string }> = []
afterEach(async () => {
  for (const { gateway, dir } of running.splice(0)) {
    await gateway.stop()
    rmSync(dir, { recursive: true, force: true })
  }
})

interface LogLine {
  level: number
  msg: string
  maxSessions?: number
  bound?: string
}

/** The JSON log lines of a gateway started with `env`, once it logged that it listens. */
async function startupLog(env: Record<string, string>, nodeArgs: string[] = []): Promise<LogLine[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'startup-warnings-'))
  const gateway = await startGateway(
    { DATA_DIR: dir, SHARDS: '1', LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
    nodeArgs,
    { until: 'listening' },
  )
  running.push({ gateway, dir })
  await waitFor('the listening line', async () => gateway.output().includes('gateway listening') || undefined, 30_000)
  return gateway
    .output()
    .trim()
    .split('\n')
    .map(line => JSON.parse(line) as LogLine)
}

const WARN = 40
const warnings = (lines: LogLine[]) => lines.filter(l => l.level === WARN).map(l => l.msg)
const PROXY_PRIVATE =
  "SESSION_PROXY_ALLOW_PRIVATE=true: a tenant's proxy may be a loopback or private address, so any client " +
  'that creates a session can make the gateway connect inside its network'
const NO_DATA_KEY =
  "cluster mode without DATA_KEY: the sessions' credentials and Signal keys lie in Redis in clear, so " +
  'whoever reads Redis (or its backups) can take over every account'
const PLAIN_HTTP =
  'cluster mode with a plain http ADVERTISE_URL and CLUSTER_REQUIRE_TLS=false: requests forwarded between ' +
  "the nodes, tenants' session secrets and messages included, cross the network unencrypted"

describe('start-up warnings', () => {
  it('VERIFY_PLATFORM_SIGNATURES=false logs a warning that says what is unchecked', async () => {
    const warnings = (await startupLog({ VERIFY_PLATFORM_SIGNATURES: 'false' }))
      .filter(l => l.level === WARN)
      .map(l => l.msg)
    expect(warnings).toContain(
      "VERIFY_PLATFORM_SIGNATURES=false: the platform's certificate chain and the phone's " +
        'account signature are not checked (a man in the middle could pose as the platform)',
    )
  }, 90_000)

  it('the defaults start without that warning, the SSRF one, or the proxy one', async () => {
    const lines = await startupLog({})
    expect(lines.map(l => l.msg)).toContain('gateway listening')
    expect(
      lines.filter(
        l =>
          l.level >= WARN &&
          /VERIFY_PLATFORM_SIGNATURES|MEDIA_ALLOW_PRIVATE_URLS|SESSION_PROXY_ALLOW_PRIVATE|cluster/.test(l.msg),
      ),
    ).toEqual([])
  }, 90_000)

  it("SESSION_PROXY_ALLOW_PRIVATE=true logs that tenants' proxies may reach inside the network", async () => {
    expect(warnings(await startupLog({ SESSION_PROXY_ALLOW_PRIVATE: 'true' }))).toContain(PROXY_PRIVATE)
  }, 90_000)

  it('names the Node it runs on in the listening line, and says nothing more on Node 24', async () => {
    const lines = await startupLog({})
    const listening = lines.find(l => l.msg === 'gateway listening') as { node?: string } | undefined
    expect(listening?.node).toBe(process.versions.node)
    expect(lines.filter(l => l.level >= WARN && l.msg.startsWith('Node '))).toEqual([])
  }, 90_000)
})

describeWithRedis('start-up warnings in cluster mode', () => {
  let redis: RedisServer | undefined
  afterEach(async () => {
    await redis?.stop()
    redis = undefined
  })
  const cluster = async (env: Record<string, string>) => {
    redis = await startRedisServer()
    return warnings(
      await startupLog({
        REDIS_URL: redis.url,
        NODE_ID: 'node-1',
        CLUSTER_SECRET: 'a-cluster-secret-of-the-nodes-thirty-two-characters-or-more',
        ...env,
      }),
    )
  }

  it('without DATA_KEY, and on the default http address without CLUSTER_REQUIRE_TLS: one warn line each', async () => {
    const lines = await cluster({})
    expect(lines).toContain(NO_DATA_KEY)
    expect(lines).toContain(PLAIN_HTTP)
  }, 90_000)

  it('with DATA_KEY and an https address, neither', async () => {
    const lines = await cluster({
      DATA_KEY: Buffer.alloc(32, 7).toString('base64'),
      ADVERTISE_URL: 'https://127.0.0.1:3999',
    })
    expect(lines.filter(l => l === NO_DATA_KEY || l === PLAIN_HTTP)).toEqual([])
  }, 90_000)
})

describe('MAX_SESSIONS at start', () => {
  const capacityLines = (lines: LogLine[]) => lines.filter(l => l.msg.startsWith('MAX_SESSIONS'))

  it("unset, the gateway logs the machine's figure and how it was reached", async () => {
    const expected = machineSessionCapacity()
    const [line, ...more] = capacityLines(await startupLog({}))
    expect(more).toEqual([])
    expect(line).toMatchObject({ level: 30, maxSessions: expected.sessions, bound: expected.bound })
    expect(line!.msg).toMatch(
      new RegExp(
        `^MAX_SESSIONS ${expected.sessions} from this machine, bound by its (memory|open files): memory \\d+ MB`,
      ),
    )
  }, 90_000)

  it('set by the operator, nothing is derived or said', async () => {
    expect(capacityLines(await startupLog({ MAX_SESSIONS: '40' }))).toEqual([])
  }, 90_000)
})
