/**
 * Pairing by code against the sandbox with the unmodified Baileys client: Baileys' own requestPairingCode sends the
 * companion_hello, the sandbox's phone enters the code (POST /link-code), Baileys answers the primary_hello with its
 * companion_finish, and the phone pairs it with the QR flow's pair-success; the 515 restart and the login follow.
 * A wrong code fails where the platform fails it (the phone cannot open the key bundle) and leaves the client
 * waiting; an expired code is refused. Also shows Baileys' #2737: its requestPairingCode hands out a code the
 * platform refused.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { LINK_CODE_ALPHABET } from '../../../src/sandbox/link-code-crypto.js'
import { memoryAuth, postJson, type TestSocket } from '../../support/system/baileys-client.js'
import { sandboxFixture } from '../../support/system/sandbox-fixture.js'
import { waitFor } from '../../support/wait-for.js'

/** A code that is not `code`: its last character moved one place along the alphabet. */
const otherCode = (code: string): string => {
  const last = code.at(-1)!
  return code.slice(0, -1) + LINK_CODE_ALPHABET[(LINK_CODE_ALPHABET.indexOf(last) + 1) % LINK_CODE_ALPHABET.length]
}

describe('sandbox: pairing by code with an unmodified Baileys client', () => {
  const world = sandboxFixture({ world: { accounts: [{ phone: '15550000011', name: 'Dora' }] } })

  /** A registering client showing its QR (ended after the test). */
  async function registering() {
    const auth = memoryAuth()
    const socket = world.connect(auth)
    await socket.qr()
    return { auth, socket }
  }

  /** Baileys' requestPairingCode, then a wait until the sandbox has the companion_hello (Baileys does not wait). */
  async function requestCode(socket: TestSocket, phone: string): Promise<string> {
    const before = (await world.stats()).linkCodeHellos ?? 0
    const code = await socket.sock.requestPairingCode(phone)
    await waitFor(
      'the companion_hello at the sandbox',
      async () => ((await world.stats()).linkCodeHellos ?? 0) > before,
    )
    return code
  }

  afterEach(async () => {
    world.endClients()
    await world.clearFaults()
  })

  it('the right code pairs the client, which logs in as the new device after the 515 restart', async () => {
    const { auth, socket } = await registering()
    const code = await requestCode(socket, '15550000011')
    expect(code).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/)
    const linked = await postJson(`${world.sandbox.url}/link-code`, { phone: '15550000011', code })
    expect(linked).toEqual({ status: 200, body: { phone: '15550000011', device: 1 } })
    expect((await socket.closed()).statusCode).toBe(515)
    const again = world.connect(auth)
    await again.opened()
    expect(auth.state.creds.me?.id).toBe('15550000011:1@s.whatsapp.net')
    expect(auth.state.creds.me?.name).toBe('Dora')
    expect(world.sandbox.account('15550000011')?.companions.get(1)?.identity).toEqual(
      Buffer.from(auth.state.creds.signedIdentityKey.public),
    )
  })

  it('a wrong code fails on the phone and leaves the client waiting; then the right code (typed as shown) links', async () => {
    const { socket } = await registering()
    const code = await requestCode(socket, '15550000012')
    const wrong = await postJson(`${world.sandbox.url}/link-code`, { phone: '15550000012', code: otherCode(code) })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toBe("wrong code: the phone could not open the device's key bundle")
    expect(socket.updates.some(u => u.connection === 'close')).toBe(false)
    expect(world.sandbox.account('15550000012')?.companions.size ?? 0).toBe(0)
    const typed = `${code.slice(0, 4)}-${code.slice(4)}`.toLowerCase()
    const linked = await postJson(`${world.sandbox.url}/link-code`, { phone: '15550000012', code: typed })
    expect(linked.status).toBe(200)
    expect((await socket.closed()).statusCode).toBe(515)
  })

  it('refuses an expired code, a code for a number no device asked for, and a malformed one', async () => {
    await postJson(`${world.sandbox.url}/faults`, { linkCodeTtlMs: 1 })
    const { socket } = await registering()
    const code = await requestCode(socket, '15550000013')
    // the fault gave the code 1 ms: the round trips since its registration outlast it
    const expired = await postJson(`${world.sandbox.url}/link-code`, { phone: '15550000013', code })
    expect(expired).toEqual({ status: 400, body: { error: 'expired code: ask the device for a new one' } })
    const nobody = await postJson(`${world.sandbox.url}/link-code`, { phone: '15550000099', code })
    expect(nobody).toEqual({ status: 400, body: { error: 'no device is waiting for a code for this number' } })
    const malformed = await postJson(`${world.sandbox.url}/link-code`, { phone: '15550000013', code: 'ABC-0OI' })
    expect(malformed.body.error).toMatch(/^malformed code/)
    expect((await postJson(`${world.sandbox.url}/link-code`, { phone: '15550000013' })).status).toBe(400)
  })

  it("Baileys' requestPairingCode hands out a code the platform refused (#2737): no phone can enter it", async () => {
    await postJson(`${world.sandbox.url}/faults`, { linkCodeError: 429 })
    const { socket } = await registering()
    const code = await requestCode(socket, '15550000014')
    expect(code).toHaveLength(8) // handed out although the platform answered 429
    const entered = await postJson(`${world.sandbox.url}/link-code`, { phone: '15550000014', code })
    expect(entered).toEqual({ status: 400, body: { error: 'no device is waiting for a code for this number' } })
  })
})
