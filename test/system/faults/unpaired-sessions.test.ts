/**
 * Unpaired sessions cannot be kept or multiplied (docs/operating.md: Limits). On a real gateway against the sandbox:
 *   - a client that resets a never-scanned session over and over cannot keep it alive past UNPAIRED_MAX_LIFETIME_MS,
 *     and its resets open no more platform connections than RESET_INTERVAL_MS allows (the sandbox counts them);
 *   - one client holds at most UNPAIRED_PER_CLIENT unpaired sessions; a neighbour still creates its own.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { launchGateway, sandboxCall, type Gateway } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'

const LIFETIME_MS = 8_000
const RESET_INTERVAL_MS = 2_000

describe('unpaired sessions', () => {
  const world = gatewayWorld({
    env: {
      TRUST_PROXY: 'loopback',
      SESSION_QR_LIFETIME_MS: '6000',
      UNPAIRED_MAX_LIFETIME_MS: String(LIFETIME_MS),
      RESET_INTERVAL_MS: String(RESET_INTERVAL_MS),
      UNPAIRED_PER_CLIENT: '2',
    },
  })
  const others: { dataDir: string; gw?: Gateway }[] = []
  afterAll(async () => {
    for (const other of others) {
      await other.gw?.proc.stop()
      rmSync(other.dataDir, { recursive: true, force: true })
    }
  })

  const connections = async (): Promise<number> =>
    (await sandboxCall(world.sandbox.url, 'GET', '/stats')).body.connections ?? 0

  it('a reset flood neither keeps a never-scanned session past its lifetime nor opens a connection per reset', async () => {
    const before = await connections()
    const session = await world.gw.api.POST('/session', { headers: { 'x-forwarded-for': '198.51.100.7' } })
    const s = session.data!
    const statuses: number[] = []
    // A reset every 50 ms: each would re-arm the 6 s QR window and open a new platform connection, were it let.
    for (let i = 0; i < 600 && statuses.at(-1) !== 404; i++) {
      const r = await world.gw.call('POST', '/session/reset', s)
      statuses.push(r.status)
      if (r.status === 429) {
        expect(r.body).toEqual({
          statusCode: 429,
          message: expect.stringMatching(/^too many resets for this session, retry in [12] s$/),
        })
      } else if (r.status !== 404) {
        expect(r).toEqual({ status: 200, body: { id: s.id, sessionId: s.sessionId } })
      }
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    // Deleted at the cap, although reset all along (600 × 50 ms is far past the 8 s lifetime).
    expect(statuses.at(-1)).toBe(404)
    expect((await world.gw.session(s)).status).toBe(404)
    const accepted = statuses.filter(code => code === 200).length
    expect(accepted).toBeGreaterThanOrEqual(1)
    expect(accepted).toBeLessThanOrEqual(LIFETIME_MS / RESET_INTERVAL_MS + 1)
    // The session's first connection, one per accepted reset, and nothing for the refused ones.
    expect((await connections()) - before).toBeLessThanOrEqual(1 + accepted)
  }, 120_000)

  it('caps the unpaired sessions of one client, not of its neighbour', async () => {
    // A gateway of its own with a QR window long enough that no session of this test expires during it (a shard
    // thread starts with its first session, which on a loaded machine takes seconds of the 6 s window above).
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'unpaired-cap-'))
    others.push({ dataDir })
    const capped = await launchGateway(world.sandbox.url, dataDir, {
      TRUST_PROXY: 'loopback',
      UNPAIRED_PER_CLIENT: '2',
    })
    others[others.length - 1]!.gw = capped
    const create = (client: string) => capped.api.POST('/session', { headers: { 'x-forwarded-for': client } })
    const first = await create('203.0.113.10')
    const second = await create('203.0.113.10')
    expect([first.response.status, second.response.status]).toEqual([200, 200])
    const third = await create('203.0.113.10')
    expect(third.response.status).toBe(429)
    expect(third.error).toEqual({
      statusCode: 429,
      message: expect.stringMatching(
        /^too many unpaired sessions for this client \(2\); scan or delete one, or retry in \d+ s$/,
      ),
    })
    expect(Number(third.response.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await create('203.0.113.11')).response.status).toBe(200)
    // Deleting one frees a place.
    expect((await capped.call('DELETE', '/session', first.data!)).status).toBe(200)
    expect((await create('203.0.113.10')).response.status).toBe(200)
  }, 60_000)
})
