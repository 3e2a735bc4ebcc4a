/**
 * @module test/support/system/faults
 * What the fault tests share on top of the harness (./harness.ts): a world with named phones, polling a session
 * into a state, sessions placed on a chosen shard, the sandbox's fault switches, and an audit of what a recipient's
 * phone really received against what the API answered (nothing twice, nothing answered 200 and missing).
 */
import { expect } from 'vitest'
import { parseProm, sumOf } from '../prom-text.js'
import { openLmdbStore } from '../../../src/storage/lmdb-store.js'
import { inbox, sandboxCall, startWorld, type Gateway, type Session } from './harness.js'
import { waitFor } from '../wait-for.js'

export const ALICE = '15550000001'
export const BOB = '15550000002'
export const CAROL = '15550000003'
export const DAVE = '15550000004'

/** Sandbox + temp DATA_DIR with the four phones (no groups or channels: the faults need none). */
export function faultWorld() {
  return startWorld({
    accounts: [
      [ALICE, 'Alice'],
      [BOB, 'Bob'],
      [CAROL, 'Carol'],
      [DAVE, 'Dave'],
    ].map(([phone, name]) => ({ phone, name })),
  })
}

export const setFaults = (sandboxUrl: string, faults: Record<string, unknown>) =>
  sandboxCall(sandboxUrl, 'POST', '/faults', faults)
export const clearFaults = (sandboxUrl: string) => sandboxCall(sandboxUrl, 'DELETE', '/faults')

/** How many retry receipts the sandbox's phones sent, by message id (fault `failDecryptOf`). */
export const retryReceipts = async (sandboxUrl: string): Promise<Record<string, number>> =>
  (await sandboxCall(sandboxUrl, 'GET', '/stats')).body.retryReceipts ?? {}

/** Polls GET /session until `test` holds; returns that body. */
export function sessionWhere(gw: Gateway, s: Session, what: string, test: (body: any) => boolean, timeoutMs = 90_000) {
  return waitFor(
    what,
    async () => {
      const r = await gw.session(s).catch(() => undefined)
      return r?.status === 200 && test(r.body) ? r.body : undefined
    },
    timeoutMs,
  )
}

export const connected = (gw: Gateway, s: Session, timeoutMs?: number) =>
  sessionWhere(gw, s, `${s.id} connected`, b => b.isConnected === true, timeoutMs)

/** Sessions placed on `shard`, as the gateway's /metrics says. */
const sessionsOn = async (gw: Gateway, shard: number) =>
  sumOf(parseProm(await (await fetch(`${gw.url}/metrics`)).text()), 'gateway_shard_sessions', { shard: String(shard) })

/**
 * Creates sessions until one lands on `shard`, one at a time, reading where each went from `gateway_shard_sessions`;
 * the others are deleted once it has (deleted at once, each would free the place the next one then takes). Start
 * the gateway with SHARD_FILL 1 to reach a shard other than the first.
 */
export async function sessionOnShard(gw: Gateway, shard: number): Promise<Session> {
  const elsewhere: Session[] = []
  try {
    for (let tries = 0; tries < 20; tries++) {
      const before = await sessionsOn(gw, shard)
      const s = await gw.createSession()
      if ((await sessionsOn(gw, shard)) > before) return s
      elsewhere.push(s)
    }
  } finally {
    for (const s of elsewhere) await gw.call('DELETE', '/session', s)
  }
  throw new Error(`no session landed on shard ${shard} in 20 tries (SHARD_FILL?)`)
}

export interface SendOutcome {
  text: string
  status: number
  body: any
}

/**
 * The audit of a batch of sends to `phone`: a text answered 200 arrived exactly once under the answered id; any other
 * answer is a 5xx in the spec's shape with one of the `clear` messages, and its text arrived at most once. Waits for
 * every 200 to arrive first, so a slow delivery is not read as a loss.
 */
export async function auditDelivery(sandboxUrl: string, phone: string, outcomes: SendOutcome[], clear: string[]) {
  const ok = outcomes.filter(o => o.status === 200)
  await waitFor(
    'every accepted message at the recipient',
    async () => {
      const got = await inbox(sandboxUrl, phone)
      return ok.every(o => got.some(m => m.id === o.body.messageId)) || undefined
    },
    60_000,
  )
  const got = await inbox(sandboxUrl, phone)
  for (const o of outcomes) {
    const copies = got.filter(m => m.text === o.text)
    expect(copies.length, `"${o.text}" arrived ${copies.length} times`).toBeLessThanOrEqual(1)
    if (o.status === 200) {
      expect(copies.map(m => m.id)).toEqual([o.body.messageId])
    } else {
      expect(o.body).toEqual({ statusCode: o.status, message: expect.any(String) })
      expect(o.status).toBeGreaterThanOrEqual(500)
      expect(clear, `unclear failure for "${o.text}"`).toContain(o.body.message)
    }
  }
  return got
}

/** Reads the stored registry and credentials of a stopped gateway's DATA_DIR. */
export async function storedState(dataDir: string) {
  const store = openLmdbStore(dataDir)
  try {
    const sessions = await store.listSessions()
    const creds = new Map<string, any>()
    for (const s of sessions) creds.set(s.id, await store.auth(s.id).readCreds())
    return { sessions, creds }
  } finally {
    await store.close()
  }
}
