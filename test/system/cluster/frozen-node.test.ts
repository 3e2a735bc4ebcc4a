/**
 * @module test/system/cluster/frozen-node
 * A node that loses a session's lease deletes nothing (docs/cluster.md: every write fenced): node-1 shows a session's
 * QR and is frozen (SIGSTOP) past its lease; node-2 adopts the session and the phone pairs it there; node-1 wakes
 * after the QR deadline it knew, whose timer then fires. Its deletion is refused (it no longer holds the lease):
 * the session stays registered, paired, connected, its credentials intact, and it sends through either node.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithRedis } from '../../support/redis-server.js'
import { startCluster, type TestCluster } from '../../support/cluster.js'
import { inbox, pair, postWorld, reply, withSession, type Session } from '../../support/system/harness.js'
import { REGISTRY_KEY, sessionKeys } from '../../../src/cluster/store/keys.js'
import { waitFor } from '../../support/wait-for.js'

const QR_LIFETIME_MS = 20_000
const PHONE = '15550400001'
const CONTACT = '15550400002'

describeWithRedis('a node frozen past its lease', () => {
  let cluster: TestCluster

  beforeAll(async () => {
    cluster = await startCluster(2, { SESSION_QR_LIFETIME_MS: String(QR_LIFETIME_MS) })
    await postWorld(cluster.sandbox, {
      accounts: [
        { phone: PHONE, name: 'Tenant' },
        { phone: CONTACT, name: 'Contact' },
      ],
    })
  }, 120_000)

  afterAll(async () => {
    await cluster?.close()
  })

  it('deletes nothing when it wakes past the QR deadline of a session another node paired meanwhile', async () => {
    const first = cluster.nodes[0]!
    const second = cluster.nodes[1]!
    // both nodes empty: the tie goes to node-1, which shows the session's QR
    const session: Session = await first.createSession()
    const createdAt = Date.now()
    await waitFor('a QR from node-1', async () => (await first.session(session)).body.qrcode || undefined)
    expect(await cluster.ownerOf(session)).toBe('node-1')

    first.proc.child.kill('SIGSTOP')
    try {
      await waitFor('node-2 holding the lease', async () => (await cluster.ownerOf(session)) === 'node-2' || undefined)
      await pair(second, cluster.sandbox, session, PHONE)
      // the QR deadline node-1 knew passes while it is still frozen
      await new Promise(r => setTimeout(r, Math.max(0, createdAt + QR_LIFETIME_MS + 1_000 - Date.now())))
    } finally {
      first.proc.child.kill('SIGCONT')
    }
    // node-1 runs again: its QR timer fires, its lease keeper finds the lease gone, its loop steps down
    await new Promise(r => setTimeout(r, 5_000))

    expect(Number(await cluster.raw.command(['HEXISTS', REGISTRY_KEY, session.id]))).toBe(1)
    expect(Number(await cluster.raw.command(['EXISTS', sessionKeys(session.id).creds]))).toBe(1)
    expect(await cluster.ownerOf(session)).toBe('node-2')
    for (const gw of [first, second]) {
      const answer = await gw.session(session)
      expect(answer).toMatchObject({ status: 200, body: { isConnected: true } })
      expect(answer.body.generatedId).toMatch(new RegExp(`^${PHONE}:`))
    }
    expect(await cluster.metric(0, 'gateway_cluster_fenced_writes_refused_total')).toBeGreaterThan(0)
    const sent = await reply(
      first.api.POST('/message', withSession(session, { body: { phone: CONTACT, type: 'text', text: 'still here' } })),
    )
    expect(sent.status).toBe(200)
    await waitFor(
      'the message at the contact',
      async () => (await inbox(cluster.sandbox, CONTACT)).some(m => m.text === 'still here') || undefined,
    )
  }, 120_000)
})
