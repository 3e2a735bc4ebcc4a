/**
 * One tenant cannot shut out its neighbours on a shared shard (docs/operating.md). On a real gateway with one shard,
 * a hostile session fires 1,000 concurrent reads the platform answers slowly (the sandbox delays only that
 * account's connection). Without a per-session cap those 1,000 filled the shard's queue and every neighbour got
 * 503 `server busy`. Now the hostile session holds at most MAX_PENDING_PER_SESSION of them and gets 429 with
 * Retry-After for the rest, while the neighbour's sends and reads on the same shard all succeed and arrive.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { headersOf, pair, type Session } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'
import {
  ALICE,
  BOB,
  CAROL,
  auditDelivery,
  clearFaults,
  faultWorld,
  setFaults,
  type SendOutcome,
} from '../../support/system/faults.js'
import { waitFor } from '../../support/wait-for.js'

const FLOOD = 1_000
const PER_SESSION = 32 // the default MAX_PENDING_PER_SESSION

describe('a slow-request flood from one tenant', () => {
  // One shard, so both sessions share it; the read and send rates are off, so only admission stands between the
  // flood and the shard.
  const world = gatewayWorld({
    start: faultWorld,
    env: { SHARDS: '1', READ_RATE_PER_SECOND: '0', SEND_RATE_PER_SECOND: '0' },
  })
  let hostile: Session
  let neighbour: Session

  beforeAll(async () => {
    hostile = await world.gw.createSession()
    await pair(world.gw, world.sandbox.url, hostile, ALICE)
    neighbour = await world.gw.createSession()
    await pair(world.gw, world.sandbox.url, neighbour, CAROL)
  }, 180_000)

  it('caps the flood at the session, and the neighbour on the same shard gets no 503 or 429', async () => {
    // Each stanza to the hostile account waits 10 s: no admitted read of the flood can end while the flood arrives.
    await setFaults(world.sandbox.url, { delayMs: 10_000, delayAccount: ALICE })
    const tally = { served: 0, refused: 0 }
    const flood = Array.from({ length: FLOOD }, () =>
      fetch(`${world.gw.url}/group`, { headers: headersOf(hostile) }).then(async res => {
        const answer = { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() }
        if (res.status === 200) tally.served++
        if (res.status === 429) tally.refused++
        return answer
      }),
    )
    const outcomes: SendOutcome[] = []
    try {
      await waitFor(
        'every request past the cap refused',
        async () => tally.refused >= FLOOD - PER_SESSION || undefined,
        60_000,
      )
      expect(tally).toEqual({ served: 0, refused: FLOOD - PER_SESSION })
      const stamp = Date.now()
      for (let i = 0; i < 10; i++) {
        const text = `neighbour ${stamp} #${i}`
        outcomes.push({
          text,
          ...(await world.gw.call('POST', '/message', neighbour, { phone: BOB, type: 'text', text })),
        })
        const groups = await world.gw.call('GET', '/group', neighbour)
        expect(groups.status, JSON.stringify(groups.body)).toBe(200)
        expect(groups.body.docs).toEqual(expect.any(Array))
        expect((await world.gw.session(neighbour)).status).toBe(200)
      }
    } finally {
      await clearFaults(world.sandbox.url)
    }
    for (const o of outcomes) expect(o.status, JSON.stringify(o.body)).toBe(200)
    await auditDelivery(world.sandbox.url, BOB, outcomes, [])

    // The admitted reads finish once the platform answers again; nothing was answered 503 or 500.
    const answers = await Promise.all(flood)
    expect(tally).toEqual({ served: PER_SESSION, refused: FLOOD - PER_SESSION })
    for (const r of answers.filter(a => a.status === 429)) {
      expect(r.retryAfter).toBe('1')
      expect(r.body).toEqual({ statusCode: 429, message: 'too many requests in flight for this session, retry in 1 s' })
    }
  }, 240_000)
})
