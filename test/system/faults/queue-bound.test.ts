/**
 * The bounded queue per session on a real gateway process: while the platform is slow to acknowledge, sends pile up
 * on the session's worker thread; past MAX_PENDING_PER_SESSION the next one is refused at once with 429 and
 * Retry-After instead of waiting behind them, GET /session keeps answering, and the queued sends all finish
 * (delivered once each) when the platform recovers.
 */
import { describe, expect, it } from 'vitest'
import { headersOf } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import {
  ALICE,
  BOB,
  auditDelivery,
  clearFaults,
  faultWorld,
  setFaults,
  type SendOutcome,
} from '../../support/system/faults.js'

describe('a full session queue', () => {
  const paired = pairedGateway(ALICE, {
    start: faultWorld,
    env: { SHARDS: '1', MAX_PENDING_PER_SESSION: '3', ACK_TIMEOUT_MS: '60000', SEND_RATE_PER_SECOND: '0' },
    timeoutMs: 180_000,
  })

  it('refuses the send past the bound with 429 and Retry-After; the queued ones complete', async () => {
    await setFaults(paired.sandbox.url, { delayMs: 2_000 })
    const send = async (text: string): Promise<SendOutcome> => ({
      text,
      ...(await paired.gw.call('POST', '/message', paired.session, { phone: BOB, type: 'text', text })),
    })
    const stamp = Date.now()
    const queued = [0, 1, 2].map(i => send(`queued ${stamp} #${i}`))
    try {
      // The three are on the shard once a fourth is refused; poll rather than guess when they arrived.
      let refused: Response | undefined
      for (let i = 0; i < 100 && refused === undefined; i++) {
        const res = await fetch(`${paired.gw.url}/message`, {
          method: 'POST',
          headers: { ...headersOf(paired.session), 'content-type': 'application/json' },
          body: JSON.stringify({ phone: BOB, type: 'location', location: { latitude: 1, longitude: 1 } }),
          signal: AbortSignal.timeout(1_000),
        }).catch(() => undefined) // a probe that got in line instead is abandoned
        if (res?.status === 429) refused = res
        else await new Promise(r => setTimeout(r, 100))
      }
      expect(refused?.headers.get('retry-after')).toBe('1')
      expect(await refused?.json()).toEqual({
        statusCode: 429,
        message: 'too many requests in flight for this session, retry in 1 s',
      })
      expect((await paired.gw.session(paired.session)).status).toBe(200) // answered from the cache, not the busy thread
    } finally {
      await clearFaults(paired.sandbox.url)
    }
    const outcomes = await Promise.all(queued)
    for (const o of outcomes) expect(o.status).toBe(200)
    await auditDelivery(paired.sandbox.url, BOB, outcomes, [])
  }, 180_000)
})
