/**
 * Our privacy token (tctoken) is issued to a contact once, with the first message, not with every message.
 * Baileys writes its record of the issuance from inside a key-store transaction that has already committed, so the
 * record was lost and every send issued the token again: one more iq and answer per message (the gateway's
 * fix is src/platform/baileys/link/tc-token.ts). The sandbox counts issuances in GET /stats `privacyTokenIssues`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALICE, BOB, CAROL, faultWorld } from '../../support/system/faults.js'
import { inbox, launchPaired, sandboxCall, type Gateway, type Session } from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

describe('privacy tokens on 1:1 sends', () => {
  let world: Awaited<ReturnType<typeof faultWorld>>
  let gw: Gateway
  let session: Session
  const issues = async () =>
    ((await sandboxCall(world.sandbox.url, 'GET', '/stats')).body.privacyTokenIssues as number | undefined) ?? 0

  beforeAll(async () => {
    world = await faultWorld()
    ;({ gw, session } = await launchPaired(world.sandbox.url, world.dataDir, ALICE))
  }, 300_000)
  afterAll(async () => {
    await gw?.proc.stop()
    await world?.cleanup()
  })

  it('are issued once per contact, however many messages follow', async () => {
    const before = await issues()
    const ids: string[] = []
    for (const [to, n] of [
      [BOB, 6],
      [CAROL, 3],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const r = await gw.call('POST', '/message', session, { phone: to, type: 'text', text: `token ${to} #${i}` })
        expect(r.status).toBe(200)
        ids.push((r.body as { messageId: string }).messageId)
      }
    }
    await waitFor(
      'every message in its inbox',
      async () => {
        const got = [...(await inbox(world.sandbox.url, BOB)), ...(await inbox(world.sandbox.url, CAROL))].map(
          (m: { id: string }) => m.id,
        )
        return ids.every(id => got.includes(id)) || undefined
      },
      30_000,
    )
    await waitFor('the issuances', async () => (await issues()) - before >= 2 || undefined, 10_000)
    expect((await issues()) - before).toBe(2) // one for Bob, one for Carol
  }, 120_000)
})
