/**
 * The sandbox state file: a client paired with one sandbox logs straight back in to a new sandbox started on the
 * saved file, and its messages still decrypt on the recipient's phone (the phone kept its Signal sessions).
 * GET /stats counts logins and the logged-in connections that ended.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSandbox, type InboxMessage, type Sandbox } from '../../../src/sandbox/index.js'
import { connect, fetchTrust, getJson, pairAndLogin, type TestSocket } from '../../support/system/baileys-client.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550001001'
const BOB = '15550001002'
const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-'))
const stateFile = path.join(dir, 'state.json')
const open: Array<Sandbox | TestSocket> = []

afterAll(async () => {
  for (const o of open.reverse()) 'sock' in o ? o.end() : await o.close()
  rmSync(dir, { recursive: true, force: true })
})

const world = {
  accounts: [
    { phone: ALICE, name: 'Alice' },
    { phone: BOB, name: 'Bob' },
  ],
}
const inboxOf = async (sandbox: Sandbox, phone: string) =>
  (await getJson<{ messages: InboxMessage[] }>(`${sandbox.url}/accounts/${phone}/inbox`)).messages
const stats = (sandbox: Sandbox) => getJson<Record<string, number>>(`${sandbox.url}/stats`)

describe('sandbox state file', () => {
  it('lets a paired client log in again after a restart, its messages still decrypting on the phone', async () => {
    const first = await createSandbox({ port: 0, world, stateFile })
    open.push(first)
    const { socket, auth } = await pairAndLogin(first.url, await fetchTrust(first.url), ALICE)
    const before = await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'before the restart' })
    await waitFor('first text', async () => (await inboxOf(first, BOB)).find(m => m.id === before?.key.id), 20_000, 100)
    expect(await stats(first)).toMatchObject({ logins: 1 })
    socket.end()
    await waitFor('login ended', async () => (await stats(first)).loginsEnded === 1 || undefined, 20_000, 100)
    await first.close()

    const prekeysOnServer = first.account(ALICE)!.companions.get(1)!.preKeys.size
    const second = await createSandbox({ port: 0, stateFile })
    open.push(second)
    // the companion's uploaded prekeys came back too: the client finds enough on the server and uploads none
    expect(second.account(ALICE)!.companions.get(1)!.preKeys.size).toBe(prekeysOnServer)
    expect(prekeysOnServer).toBeGreaterThan(5)
    expect(second.world().accounts.map(a => a.name)).toEqual(['Alice', 'Bob']) // the saved world, not the demo one
    const again = connect(await fetchTrust(second.url), auth)
    open.push(again)
    await again.opened()
    const after = await again.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'after the restart' })
    const got = await waitFor(
      'second text',
      async () => (await inboxOf(second, BOB)).find(m => m.id === after?.key.id),
      20_000,
      100,
    )
    expect(got).toMatchObject({ from: ALICE, text: 'after the restart' })
    expect(got.error).toBeUndefined()
    expect(await stats(second)).toMatchObject({ logins: 1 })
  })

  it('starts from its world options when the file does not exist yet', async () => {
    const sandbox = await createSandbox({ port: 0, world, stateFile: path.join(dir, 'none.json') })
    open.push(sandbox)
    expect(sandbox.world().accounts.map(a => a.phone)).toEqual([ALICE, BOB])
  })
})
