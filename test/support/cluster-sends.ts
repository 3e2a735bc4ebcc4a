/**
 * @module test/support/cluster-sends
 * The sends of the cluster scenarios (support/cluster.ts): a paired session, what one send got, and the check every
 * scenario ends with: each send answered 200 arrived exactly once at its contact, no message arrived twice, and
 * every other answer was a 5xx with the error body.
 */
import { expect } from 'vitest'
import { inbox, type Session } from './system/harness.js'
import { waitFor } from './wait-for.js'

export interface PairedSession extends Session {
  phone: string
}

export interface SendOutcome {
  session: PairedSession
  to: string
  text: string
  via: number
  status: number
  body: any
}

/**
 * The checks of every scenario: each 200 arrived exactly once at its contact (within `timeoutMs`), no message
 * arrived twice, and every other answer was a 5xx with the error body (0 = the node's socket closed: a client of
 * a node that died sees that, and a load balancer retries elsewhere).
 */
export async function expectDeliveredExactlyOnce(
  sandboxUrl: string,
  contacts: string[],
  outcomes: SendOutcome[],
  timeoutMs = 30_000,
): Promise<void> {
  const ok = outcomes.filter(o => o.status === 200)
  for (const o of outcomes.filter(o => o.status !== 200)) {
    if (o.status === 0) continue
    expect(o.status, `${o.text}: ${JSON.stringify(o.body)}`).toBeGreaterThanOrEqual(500)
    expect(o.body).toMatchObject({ statusCode: o.status, message: expect.any(String) })
  }
  const ids = new Map(ok.map(o => [o.body.messageId as string, o]))
  await waitFor(
    `${ok.length} answered messages in the inboxes`,
    async () => {
      const seen = new Set<string>()
      for (const phone of contacts) for (const m of await inbox(sandboxUrl, phone)) seen.add(m.id)
      return [...ids.keys()].every(id => seen.has(id)) || undefined
    },
    timeoutMs,
  )
  const counts = new Map<string, number>()
  for (const phone of contacts) {
    for (const m of await inbox(sandboxUrl, phone)) counts.set(m.id, (counts.get(m.id) ?? 0) + 1)
  }
  const twice = [...counts].filter(([, n]) => n > 1)
  expect(twice, 'messages that arrived more than once').toEqual([])
  for (const [id, o] of ids) {
    const got = (await inbox(sandboxUrl, o.to)).find(m => m.id === id)
    expect(got, `${o.text} arrived`).toMatchObject({ type: 'text', text: o.text, from: o.session.phone })
  }
}
