/**
 * @module test/system/cluster/lease-lost-after-send
 * A send whose message went out to the platform, and whose node then lost the session's lease before the send
 * finished, is not answered "moving, retry in 1 s" (which says nothing ran: a client, and a node that forwarded the
 * request, send it again, and the contact gets it twice). Baileys writes the message, then stores the ratchet it
 * advanced; in cluster mode that store is refused once the lease is gone. The chaos bench found it as a node frozen
 * (SIGSTOP) between the two, by chance; here without timing luck: Redis is down as the text is sent, so the store
 * fails and Baileys tries it again 3 s later; meanwhile the node is frozen, Redis comes back, and the other node
 * takes the session over. When the frozen node wakes, its store is refused by the fence. The client must hear that
 * the text may have been delivered, and the contact has it once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithRedis } from '../../support/redis-server.js'
import { startCluster, type TestCluster } from '../../support/cluster.js'
import { inbox, reply, withSession, type Reply } from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

const PHONE = '15550410001'
const CONTACT = '15550410002'

describeWithRedis('a send whose node loses the lease after the message went out', () => {
  let cluster: TestCluster

  beforeAll(async () => {
    cluster = await startCluster(2)
    await cluster.addContacts([CONTACT])
    await cluster.pairSessions(1, Number(PHONE))
    await cluster.settled()
  }, 120_000)

  afterAll(async () => {
    for (const n of cluster?.live() ?? []) n.gw.proc.child.kill('SIGCONT')
    await cluster?.close()
  })

  it('is answered "may have been delivered", not "moving", and reaches the contact once', async () => {
    const session = cluster.sessions[0]!
    const owner = Number((await cluster.ownerOf(session))!.split('-')[1]) - 1
    const [gw, other] = [cluster.nodes[owner]!, cluster.nodes[1 - owner]!]
    const send = (text: string, via = gw): Promise<Reply> =>
      reply(via.api.POST('/message', withSession(session, { body: { phone: CONTACT, type: 'text', text } })))
    const copies = async (text: string) => (await inbox(cluster.sandbox, CONTACT)).filter(m => m.text === text).length
    // the Signal session with the contact exists, and its keys are in the node's cache: the next send reads nothing
    expect((await send('first')).status).toBe(200)

    await cluster.redis.down()
    const pending = send('sent, then the lease lost')
    try {
      await waitFor('the text at the contact', async () => (await copies('sent, then the lease lost')) || undefined)
      // the store failed (no Redis); Baileys tries it again in 3 s, by which time this node is frozen
      gw.proc.child.kill('SIGSTOP')
      await cluster.redisUp()
      await waitFor('the other node holding the lease', async () =>
        (await cluster.ownerOf(session)) === `node-${2 - owner}` ? true : undefined,
      )
    } finally {
      gw.proc.child.kill('SIGCONT')
    }
    const answer = await pending
    expect(answer.status).toBe(500)
    expect(answer.body.message).toBe(
      'the connection dropped before the platform acknowledged the message; it may have been delivered',
    )
    expect((await send('after', other)).status).toBe(200)
    await waitFor('the text after', async () => (await copies('after')) || undefined)
    expect(await copies('sent, then the lease lost')).toBe(1)
  }, 120_000)
})
