/**
 * The disk fills up under a running gateway. Simulated without privileges: `prlimit` lowers the process's file-size
 * limit (RLIMIT_FSIZE) to the store's current size, so every write that would grow it fails with EFBIG, as on a full
 * disk, in every thread. A new session is refused with a clear 503 in the spec's shape, the process stays up, the
 * paired session stays connected, and once space is back it takes new sessions again; after a restart every session
 * stored before is still there.
 */
import { execFileSync } from 'node:child_process'
import { statSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchGateway, launchPaired, type Gateway, type Session } from '../e2e/harness.js'
import { ALICE, connected, faultWorld, storedState } from './helpers.js'

const STORAGE_FULL = 'storage write failed (disk full or not writable); the session was not created'

/** Sets the soft file-size limit of a running process (bytes; 'unlimited' lifts it). */
const fileSizeLimit = (pid: number, limit: number | 'unlimited') =>
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${limit}:`])

describe('storage full under a running gateway', () => {
  let world: Awaited<ReturnType<typeof faultWorld>>
  let gw: Gateway
  let paired: Session

  beforeAll(async () => {
    world = await faultWorld()
    // No per-client cap on unpaired sessions: the store must grow until it is full, however many that takes (its
    // growth comes from the new sessions' first credential writes, which a shard thread starting up makes later).
    ;({ gw, session: paired } = await launchPaired(world.sandbox.url, world.dataDir, ALICE, { UNPAIRED_PER_CLIENT: '0' }))
  }, 180_000)
  afterAll(async () => { await gw?.proc.stop(); await world?.cleanup() })

  it('refuses new sessions clearly, keeps running and keeps every stored session', async () => {
    const created: Session[] = [await gw.createSession()]
    const pid = gw.proc.child.pid!
    fileSizeLimit(pid, statSync(path.join(world.dataDir, 'gateway.mdb')).size)
    let refused: { status: number; body: any } | undefined
    try {
      // lmdb reuses free pages first; the store must grow within a few hundred sessions.
      for (let i = 0; i < 400 && refused === undefined; i++) {
        const r = await gw.call('POST', '/session').catch(async err => {
          await new Promise(r => setTimeout(r, 500))
          throw new Error(`the gateway died (${gw.proc.child.exitCode}): ${gw.proc.output().slice(-3000)}`, { cause: err })
        })
        if (r.status === 200) created.push(r.body)
        else refused = r
      }
      expect(refused).toEqual({ status: 503, body: { statusCode: 503, message: STORAGE_FULL } })
      expect(gw.proc.child.exitCode).toBe(null)
      expect((await gw.session(paired)).body.isConnected).toBe(true)
      for (const s of created) expect((await gw.session(s)).status).toBe(200)
    } finally {
      fileSizeLimit(pid, 'unlimited')
    }
    // Space is back: new sessions again, without a restart.
    created.push(await gw.createSession())

    expect(await gw.proc.stop()).toBe(0)
    const { sessions } = await storedState(world.dataDir)
    const ids = new Set(sessions.map(s => s.id))
    for (const s of [paired, ...created]) expect(ids.has(s.id), `${s.id} stored`).toBe(true)
    gw = await launchGateway(world.sandbox.url, world.dataDir)
    await connected(gw, paired, 120_000)
    for (const s of created) expect((await gw.session(s)).status).toBe(200)
  }, 300_000)
})
