/**
 * A worker thread of a real gateway process dies (the GATEWAY_TEST_HOOKS switch: SIGUSR2 ends shard 0's thread):
 * only that shard's session blinks (its link to the platform drops and logs in again, its in-flight send a clear 500,
 * nothing half-sent arrives), the session on the other shard keeps its link and keeps sending, and the lost one
 * comes back connected from storage, same device, no new scan. The platform's side (the sandbox's device ledger)
 * says whose link dropped: a restore fast enough to hide the blink from a poll of GET /session still shows there.
 */
import { createServer } from 'node:http'
import { once } from 'node:events'
import { beforeAll, describe, expect, it } from 'vitest'
import { ERRORS } from '../../../src/protocol/errors.js'
import { onLoopback } from '../../support/loopback-server.js'
import { inbox, pair, type Session } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'
import { ALICE, BOB, CAROL, auditDelivery, connected, faultWorld, sessionOnShard } from '../../support/system/faults.js'
import { sandboxDevices } from '../../support/system/sandbox-devices.js'
import { waitFor } from '../../support/wait-for.js'

/** A media host that never finishes its answer: a send downloading from it stays in flight. */
async function stallingMediaHost(): Promise<{ url: string; close(): Promise<void>; requested: Promise<unknown> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': 100_000 })
    res.write(Buffer.alloc(10))
  })
  const requested = once(server, 'request')
  const { url, close } = await onLoopback(server)
  return { url: `${url}/stall.jpg`, close, requested }
}

describe('a worker thread dies in a running gateway', () => {
  // SHARD_FILL 1: the second shard's thread starts with the second session
  const world = gatewayWorld({ start: faultWorld, env: { GATEWAY_TEST_HOOKS: 'true', SHARDS: '2', SHARD_FILL: '1' } })
  let victim: Session
  let bystander: Session

  beforeAll(async () => {
    victim = await sessionOnShard(world.gw, 0)
    bystander = await sessionOnShard(world.gw, 1)
    await pair(world.gw, world.sandbox.url, victim, ALICE)
    await pair(world.gw, world.sandbox.url, bystander, CAROL)
  }, 240_000)

  it('blinks only its own sessions, fails their in-flight request clearly, and restores them from storage', async () => {
    const before = (await world.gw.session(victim)).body
    /** Logins at the platform of each account's one device so far. */
    const logins = async () => {
      const devices = await sandboxDevices(world.sandbox.url)
      const of = (phone: string) => devices.filter(d => d.account === phone).map(d => d.logins)
      return { victim: of(ALICE), bystander: of(CAROL) }
    }
    const loginsBefore = await logins()
    expect(loginsBefore.victim).toHaveLength(1)
    expect(loginsBefore.bystander).toHaveLength(1)
    const stall = await stallingMediaHost()
    try {
      const inFlight = world.gw.call('POST', '/message', victim, {
        phone: BOB,
        type: 'image',
        image: { url: stall.url, mimetype: 'image/jpeg' },
      })
      await stall.requested // the download is under way on shard 0
      world.gw.proc.child.kill('SIGUSR2')

      const lost = await inFlight
      expect(lost).toEqual({ status: 500, body: { statusCode: 500, message: ERRORS.WORKER_CRASHED.message } })
      // The bystander on the other thread never blinks and can send while shard 0 restores.
      expect((await world.gw.session(bystander)).body.isConnected).toBe(true)
      const duringText = `bystander ${Date.now()}`
      const during = await world.gw.call('POST', '/message', bystander, { phone: BOB, type: 'text', text: duringText })
      expect(during.status).toBe(200)

      const back = await connected(world.gw, victim, 120_000)
      expect(back.generatedId).toBe(before.generatedId)
      expect((await world.gw.session(bystander)).body.isConnected).toBe(true)
      // The victim's link dropped and logged in again as the same device; the bystander's never dropped.
      const loginsAfter = await logins()
      expect(loginsAfter.victim).toHaveLength(1)
      expect(loginsAfter.victim[0]).toBeGreaterThan(loginsBefore.victim[0]!)
      expect(loginsAfter.bystander).toEqual(loginsBefore.bystander)

      const afterText = `restored ${Date.now()}`
      const after = await waitFor(
        'a send from the restored session',
        async () => {
          const r = await world.gw.call('POST', '/message', victim, { phone: BOB, type: 'text', text: afterText })
          return r.status === 200 ? r : undefined
        },
        60_000,
      )
      await auditDelivery(
        world.sandbox.url,
        BOB,
        [
          { text: duringText, ...during },
          { text: afterText, ...after },
        ],
        [],
      )
      // The image whose download the crash cut never went out.
      expect((await inbox(world.sandbox.url, BOB)).filter(m => m.type === 'image')).toEqual([])
    } finally {
      await stall.close()
    }
  }, 240_000)
})
