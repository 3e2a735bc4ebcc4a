/**
 * @module test/support/cluster
 * A cluster for the system tests: one redis-server, one sandbox, several gateway processes in cluster mode on
 * them (short leases, so failures show within seconds), sessions paired through any node, send bursts sent
 * round-robin through the nodes, and the checks every cluster scenario ends with: each send answered 200
 * arrived exactly once, every other answer was a clear 5xx.
 */
import { randomBytes } from 'node:crypto'
import { connectRedis, text, type RedisConnection } from '../../src/cluster/store/connection.js'
import { sessionKeys } from '../../src/cluster/store/keys.js'
import { NODES_KEY } from '../../src/cluster/node-directory.js'
import { type Gateway, launchGateway, pair, reply, sandboxCall, startWorld, withSession } from './system/harness.js'
import type { Session } from './system/harness.js'
import { startRedisServer, type RedisServer } from './redis-server.js'
import { type AccountLedger, expectCleanMoves, ledgerByAccount } from './system/sandbox-devices.js'
import { parseProm, sumOf } from './prom-text.js'
import { expectDeliveredExactlyOnce, type PairedSession, type SendOutcome } from './cluster-sends.js'

export type { PairedSession, SendOutcome }
import { waitFor } from './wait-for.js'

/** Test settings: 3 s leases, a heartbeat twice a second, quick reconnects. */
export const CLUSTER_TEST_ENV = {
  CLUSTER_LEASE_TTL_MS: '3000',
  CLUSTER_RENEW_MS: '500',
  CLUSTER_HEARTBEAT_MS: '500',
  CLUSTER_REBALANCE_PER_SECOND: '4',
  RECONNECT_MIN_MS: '200',
  RECONNECT_MAX_MS: '1000',
  SEND_RATE_PER_SECOND: '0',
  SESSION_CREATE_PER_MINUTE: '0',
  UNPAIRED_PER_CLIENT: '0',
}

export class TestCluster {
  readonly nodes: (Gateway | undefined)[] = []
  readonly sessions: PairedSession[] = []
  readonly contacts: string[] = []
  #sent = 0

  constructor(
    readonly redis: RedisServer,
    readonly raw: RedisConnection,
    readonly world: Awaited<ReturnType<typeof startWorld>>,
    readonly dataKey: string,
    readonly env: Record<string, string>,
    /** CLUSTER_SECRET, the same on every node. */
    readonly secret = randomBytes(32).toString('base64url'),
  ) {}

  get sandbox(): string {
    return this.world.sandbox.url
  }

  /** The running nodes with their index. */
  live(): { gw: Gateway; index: number }[] {
    return this.nodes.flatMap((gw, index) => (gw ? [{ gw, index }] : []))
  }

  /** Starts node `index` (NODE_ID `node-<index+1>`), or starts it again. */
  async startNode(index: number, env: Record<string, string> = {}): Promise<Gateway> {
    const gw = await launchGateway(this.sandbox, this.world.dataDir, {
      ...CLUSTER_TEST_ENV,
      REDIS_URL: this.redis.url,
      NODE_ID: `node-${index + 1}`,
      DATA_KEY: this.dataKey,
      CLUSTER_SECRET: this.secret,
      ...this.env,
      ...env,
    })
    this.nodes[index] = gw
    return gw
  }

  /** Waits until every running node heartbeats, then two more heartbeats: every node has seen every other. */
  async nodesSeeEachOther(): Promise<void> {
    const names = this.live().map(l => `node-${l.index + 1}`)
    await waitFor('every node heartbeating', async () => {
      const members = ((await this.raw.command(['SMEMBERS', NODES_KEY])) as Buffer[]).map(String)
      return names.every(n => members.includes(n)) || undefined
    })
    await new Promise(r => setTimeout(r, 2 * Number(CLUSTER_TEST_ENV.CLUSTER_HEARTBEAT_MS)))
  }

  async stopNode(index: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const gw = this.nodes[index]
    this.nodes[index] = undefined
    return (await gw?.proc.stop(signal)) ?? null
  }

  /**
   * Starts Redis again after `redis.down()` and waits until the tests' own client is back too: it reconnects on
   * node-redis' back-off (up to 2.2 s), and with no offline queue a command before that fails at once.
   */
  async redisUp(): Promise<void> {
    await this.redis.up()
    await waitFor(
      "the tests' Redis client to reconnect",
      () =>
        this.raw.command(['PING']).then(
          () => true,
          () => undefined,
        ),
      15_000,
      100,
    )
  }

  /** The node holding a session's lease ("node-2"), or undefined. */
  async ownerOf(s: Session): Promise<string | undefined> {
    return text(await this.raw.command(['GET', sessionKeys(s.id).lease]))?.split('|')[0]
  }

  /** Sessions per owner, "none" for those without a lease. */
  async owners(): Promise<Map<string, number>> {
    const counts = new Map<string, number>()
    for (const s of this.sessions) {
      const owner = (await this.ownerOf(s)) ?? 'none'
      counts.set(owner, (counts.get(owner) ?? 0) + 1)
    }
    return counts
  }

  /** Waits until every session has an owner and no session moved for two seconds (hand-overs are over). */
  async settled(timeoutMs = 60_000): Promise<void> {
    let last = ''
    let since = Date.now()
    await waitFor(
      'the sessions to stay where they are',
      async () => {
        const owners = await Promise.all(this.sessions.map(s => this.ownerOf(s)))
        const now = owners.join(',')
        if (owners.includes(undefined) || now !== last) {
          last = now
          since = Date.now()
          return undefined
        }
        return Date.now() - since >= 2_000 || undefined
      },
      timeoutMs,
      250,
    )
  }

  /** Creates and pairs `count` sessions as phones `firstPhone`…, round-robin through the live nodes. */
  async pairSessions(count: number, firstPhone: number): Promise<void> {
    const phones = Array.from({ length: count }, (_, i) => String(firstPhone + i))
    await sandboxCall(this.sandbox, 'POST', '/world', {
      accounts: phones.map((phone, i) => ({ phone, name: `Tenant ${i}` })),
    })
    const live = this.live()
    let next = 0
    const lane = async () => {
      for (let i = next++; i < count; i = next++) {
        const gw = live[i % live.length]!.gw
        const session = await gw.createSession()
        await pair(gw, this.sandbox, session, phones[i]!)
        this.sessions.push({ ...session, phone: phones[i]! })
      }
    }
    await Promise.all(Array.from({ length: 5 }, lane))
  }

  async addContacts(phones: string[]): Promise<void> {
    await sandboxCall(this.sandbox, 'POST', '/world', {
      accounts: phones.map(phone => ({ phone, name: `Contact ${phone}` })),
    })
    this.contacts.push(...phones)
  }

  /**
   * Sends `count` texts, `concurrency` at a time, session after session and node after node among those `via`
   * returns at each send (the live ones by default); every answer is kept.
   */
  async burst(
    count: number,
    options: { concurrency?: number; via?: () => number[]; label?: string } = {},
  ): Promise<SendOutcome[]> {
    const outcomes: SendOutcome[] = []
    const label = options.label ?? 'burst'
    let next = 0
    const lane = async () => {
      for (let i = next++; i < count; i = next++) {
        const n = this.#sent++
        const session = this.sessions[n % this.sessions.length]!
        const to = this.contacts[n % this.contacts.length]!
        const nodes = options.via?.() ?? this.live().map(l => l.index)
        const via = nodes[n % nodes.length]!
        const gw = this.nodes[via]
        const words = `${label} #${n} from ${session.phone}`
        if (!gw) {
          outcomes.push({ session, to, text: words, via, status: 0, body: 'node down' })
          continue
        }
        const r = await reply(
          gw.api.POST('/message', withSession(session, { body: { phone: to, type: 'text', text: words } })),
        ).catch((err: unknown) => ({ status: 0, body: String(err) }))
        outcomes.push({ session, to, text: words, via, status: r.status, body: r.body })
      }
    }
    await Promise.all(Array.from({ length: options.concurrency ?? 10 }, lane))
    return outcomes
  }

  /** The checks of every scenario (cluster-delivery.ts): each 200 arrived exactly once, every other a clear 5xx. */
  async expectDeliveredExactlyOnce(outcomes: SendOutcome[], timeoutMs = 30_000): Promise<void> {
    await expectDeliveredExactlyOnce(this.sandbox, this.contacts, outcomes, timeoutMs)
  }

  /** Every session connected, asked through node `via` (forwarded to its owner). */
  async allConnected(via: number, timeoutMs = 30_000): Promise<void> {
    const gw = this.nodes[via]!
    await waitFor(
      'every session connected',
      async () => {
        for (const s of this.sessions) {
          const r = await gw.session(s)
          if (r.status !== 200 || !r.body.isConnected) return undefined
        }
        return true
      },
      timeoutMs,
      200,
    )
  }

  /** The sandbox's ledger per paired account (sandbox-devices.ts). */
  ledger(): Promise<AccountLedger> {
    return ledgerByAccount(this.sandbox)
  }

  /** Since `before` (a `ledger()`), for each paired session: see `expectCleanMoves` in sandbox-devices.ts. */
  async expectCleanMoves(before: AccountLedger, maxKicks = 0): Promise<void> {
    await expectCleanMoves(
      this.sandbox,
      this.sessions.map(s => s.phone),
      before,
      maxKicks,
    )
  }

  /** A counter of node `index`'s /metrics (summed over its labels). */
  async metric(index: number, name: string, labels: Record<string, string> = {}): Promise<number> {
    const res = await fetch(`${this.nodes[index]!.url}/metrics`)
    return sumOf(parseProm(await res.text()), name, labels)
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.live().map(l => l.gw.proc.stop('SIGKILL')))
    await this.raw?.close()
    await this.world?.cleanup()
    await this.redis?.stop()
  }
}

/** Redis, the sandbox and `nodes` gateways in cluster mode, with `contacts` accounts to send to. */
export async function startCluster(nodes: number, env: Record<string, string> = {}): Promise<TestCluster> {
  const redis = await startRedisServer()
  const raw = await connectRedis(redis.url)
  const world = await startWorld()
  const cluster = new TestCluster(redis, raw, world, randomBytes(32).toString('base64'), env)
  for (let i = 0; i < nodes; i++) await cluster.startNode(i)
  await cluster.nodesSeeEachOther()
  return cluster
}
