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
import { describe, expect, it } from 'vitest'
import { launchGateway, type Session } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { ALICE, connected, faultWorld, storedState } from '../../support/system/faults.js'

const STORAGE_FULL = 'storage write failed (disk full or not writable); the session was not created'

/** Sets the soft file-size limit of a running process (bytes; 'unlimited' lifts it). */
const fileSizeLimit = (pid: number, limit: number | 'unlimited') =>
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${limit}:`])

describe('storage full under a running gateway', () => {
  // No per-client cap on unpaired sessions: the store must grow until it is full, however many that takes (its
  // growth comes from the new sessions' first credential writes, which a shard thread starting up makes later).
  const alice = pairedGateway(ALICE, { start: faultWorld, env: { UNPAIRED_PER_CLIENT: '0' }, timeoutMs: 180_000 })

  it('refuses new sessions clearly, keeps running and keeps every stored session', async () => {
    const created: Session[] = [await alice.gw.createSession()]
    const pid = alice.gw.proc.child.pid!
    fileSizeLimit(pid, statSync(path.join(alice.dataDir, 'gateway.mdb')).size)
    let refused: { status: number; body: any } | undefined
    try {
      // lmdb reuses free pages first; the store must grow within a few hundred sessions.
      for (let i = 0; i < 400 && refused === undefined; i++) {
        const r = await alice.gw.call('POST', '/session').catch(async err => {
          await new Promise(r => setTimeout(r, 500))
          throw new Error(
            `the gateway died (${alice.gw.proc.child.exitCode}): ${alice.gw.proc.output().slice(-3000)}`,
            { cause: err },
          )
        })
        if (r.status === 200) created.push(r.body)
        else refused = r
      }
      expect(refused).toEqual({ status: 503, body: { statusCode: 503, message: STORAGE_FULL } })
      expect(alice.gw.proc.child.exitCode).toBe(null)
      expect((await alice.gw.session(alice.session)).body.isConnected).toBe(true)
      for (const s of created) expect((await alice.gw.session(s)).status).toBe(200)
    } finally {
      fileSizeLimit(pid, 'unlimited')
    }
    // Space is back: new sessions again, without a restart.
    created.push(await alice.gw.createSession())

    expect(await alice.gw.proc.stop()).toBe(0)
    const { sessions } = await storedState(alice.dataDir)
    const ids = new Set(sessions.map(s => s.id))
    for (const s of [alice.session, ...created]) expect(ids.has(s.id), `${s.id} stored`).toBe(true)
    alice.gw = await launchGateway(alice.sandbox.url, alice.dataDir)
    await connected(alice.gw, alice.session, 120_000)
    for (const s of created) expect((await alice.gw.session(s)).status).toBe(200)
  }, 300_000)
})
