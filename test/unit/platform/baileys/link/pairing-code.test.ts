/**
 * Pairing by code in the Baileys link (src/platform/baileys/link/pairing-code.ts) on a fake socket: the
 * companion_hello it sends (the code-wrapped key the sandbox's phone unwraps), the code answered only once the
 * platform answered (never for a refusal or no answer), the wait for the QR refs, and the number a code was asked
 * for kept apart from a pairing (never stored, no paired state, the QR re-made with the ADV secret the phone's answer
 * changed).
 */
import { type BinaryNode, initAuthCreds } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { unwrapKey } from '../../../../../src/sandbox/link-code-crypto.js'
import { closeEvents, errorOf, harness } from '../../../../support/fakes/baileys-link-harness.js'
import { waitFor } from '../../../../support/wait-for.js'

// after the harness: the adapter's modules must see its fake socket factory
const { isCodePlaceholder, qrWithAdvSecret, registrationEndsAt } = await import(
  '../../../../../src/platform/baileys/link/pairing-code.js'
)

const refs = (n: number): BinaryNode => ({
  tag: 'iq',
  attrs: { type: 'set', xmlns: 'md' },
  content: [
    {
      tag: 'pair-device',
      attrs: {},
      content: Array.from({ length: n }, (_, i) => ({ tag: 'ref', attrs: {}, content: Buffer.from(`ref-${i}`) })),
    },
  ],
})
const accepted = (): BinaryNode => ({
  tag: 'iq',
  attrs: { type: 'result' },
  content: [
    {
      tag: 'link_code_companion_reg',
      attrs: {},
      content: [{ tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from('REF') }],
    },
  ],
})
const childOf = (node: BinaryNode, tag: string): BinaryNode =>
  (node.content as BinaryNode[]).find(c => c.tag === tag) as BinaryNode
const registering = async (env: Record<string, string> = {}) => {
  const creds = initAuthCreds()
  const h = await harness({ creds, env })
  h.sock.ws.emit('CB:iq,type:set,pair-device', refs(6))
  return { h, creds }
}
const QR = (adv: string) => `https://wa.me/settings/linked_devices#2@ref,NOISE,IDENT,${adv},1`

describe('baileys link: pairing by code', () => {
  it('answers the code only once the platform answered; the hello carries the key wrapped under that code', async () => {
    const { h, creds } = await registering()
    let answer: (node: BinaryNode) => void = () => undefined
    const queries: BinaryNode[] = []
    h.sock.onQuery = node => {
      queries.push(node)
      return new Promise(resolve => {
        answer = resolve
      })
    }
    const asked = Date.now()
    let settled = false
    const pending = h.link.requestPairingCode('15550000001').finally(() => {
      settled = true
    })
    await waitFor('the companion_hello', () => queries.length === 1, 5_000, 5)
    // sent, and seen here a timer tick later at least: a code handed out on sending would have settled by now
    expect(settled).toBe(false)
    expect(creds.pairingCode).toBeUndefined()
    answer(accepted())
    const { code, expiresAt } = await pending
    expect(code).toMatch(/^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/)
    // Baileys' 6 refs: 60 s + 5 × 20 s after the refs came, sooner than the code's own 3 minutes
    expect(expiresAt).toBeGreaterThanOrEqual(asked + 160_000 - 1_000)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 160_000)

    const hello = queries[0]!
    expect(hello.attrs).toMatchObject({ type: 'set', xmlns: 'md' })
    const reg = childOf(hello, 'link_code_companion_reg')
    expect(reg.attrs).toEqual({
      jid: '15550000001@s.whatsapp.net',
      stage: 'companion_hello',
      should_show_push_notification: 'true',
    })
    const wrapped = Buffer.from(childOf(reg, 'link_code_pairing_wrapped_companion_ephemeral_pub').content as Buffer)
    expect(await unwrapKey(code.replace('-', ''), wrapped)).toEqual(Buffer.from(creds.pairingEphemeralKeyPair.public))
    expect(childOf(reg, 'companion_server_auth_key_pub').content).toEqual(creds.noiseKey.public)
    expect(childOf(reg, 'companion_platform_display').content).toBe('Chrome (Mac OS)')
    expect(childOf(reg, 'companion_platform_id').content).toBe('1')
    // where Baileys' handler of the phone's answer reads them
    expect(creds.pairingCode).toBe(code.replace('-', ''))
    expect(creds.me).toEqual({ id: '15550000001@s.whatsapp.net', name: '~' })
  })

  it('hands out nothing when the platform refuses, or does not answer', async () => {
    const { h, creds } = await registering({ QUERY_TIMEOUT_MS: '300' })
    h.sock.onQuery = () => {
      throw Object.assign(new Error('rate-overlimit'), { data: 429 })
    }
    const refused = await errorOf(h.link.requestPairingCode('15550000001'))
    expect([refused.code, refused.platformCode, refused.message]).toEqual([
      'PAIRING_CODE_REFUSED',
      '429',
      'the platform refused the pairing code request (error 429)',
    ])
    h.sock.onQuery = () => undefined // Baileys' query resolves undefined when no answer came in time
    const silent = await errorOf(h.link.requestPairingCode('15550000001'))
    expect([silent.code, silent.message]).toEqual(['PLATFORM_TIMEOUT', 'the platform did not acknowledge in time'])
    expect([creds.pairingCode, creds.me]).toEqual([undefined, undefined])
  })

  it('waits for the QR refs of a link still connecting; without them in time the session is still connecting', async () => {
    const h = await harness({ creds: initAuthCreds(), env: { QUERY_TIMEOUT_MS: '300' } })
    h.sock.onQuery = () => accepted()
    const early = h.link.requestPairingCode('15550000001')
    h.sock.ws.emit('CB:iq,type:set,pair-device', refs(6))
    expect((await early).code).toHaveLength(9)

    const late = await harness({ creds: initAuthCreds(), env: { QUERY_TIMEOUT_MS: '300' } })
    const error = await errorOf(late.link.requestPairingCode('15550000001'))
    expect([error.code, error.message]).toEqual([
      'SESSION_CONNECTING',
      'the session is connecting to the platform, retry in 1 s',
    ])
  })

  it('a paired link needs no code', async () => {
    const creds = { ...initAuthCreds(), me: { id: '15550000001:3@s.whatsapp.net' } }
    const h = await harness({ creds })
    const error = await errorOf(h.link.requestPairingCode('15550000001'))
    expect([error.code, error.message]).toEqual([
      'PAIRING_CODE_NOT_NEEDED',
      'session is already paired; it needs no pairing code',
    ])
  })

  it('keeps the number a code was asked for apart from a pairing: not stored, not paired, the QR re-made', async () => {
    const { h, creds } = await registering()
    const firstAdv = creds.advSecretKey
    h.sock.ev.emit('connection.update', { qr: QR(firstAdv) })
    h.sock.onQuery = () => accepted()
    await h.link.requestPairingCode('15550000001')
    // what Baileys' handler of the phone's answer does: a new ADV secret, then the whole creds as an update
    creds.advSecretKey = Buffer.alloc(32, 9).toString('base64')
    creds.registered = true
    h.sock.ev.emit('creds.update', creds)
    await waitFor('the creds written', () => h.credsWrites.length > 0, 5_000, 10)
    const stored = h.credsWrites.at(-1) as Record<string, unknown>
    expect([stored.me, stored.pairingCode, stored.advSecretKey]).toEqual([undefined, undefined, creds.advSecretKey])
    expect(h.events.filter(e => e[0] === 'qr').map(e => e[1])).toEqual([QR(firstAdv), QR(creds.advSecretKey)])
    // and the QRs Baileys makes later from the refs it holds carry the secret in force too
    h.sock.ev.emit('connection.update', { qr: QR(firstAdv).replace('2@ref', '2@next') })
    expect(h.events.at(-1)).toEqual(['qr', QR(creds.advSecretKey).replace('2@ref', '2@next')])
    // the QR refs running out is still QR expiry (an unpaired link), not a lost connection of a paired one
    h.sock.end(Object.assign(new Error('QR refs attempts ended'), { output: { statusCode: 408 } }))
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    expect(closeEvents(h)[0]?.[1]).toBe('qr-expired')
  })

  it('a stored number without a pairing (an older link asked for a code) is dropped before Baileys sees it', async () => {
    const creds = { ...initAuthCreds(), me: { id: '15550000001@s.whatsapp.net', name: '~' }, pairingCode: 'ABCDEFGH' }
    const h = await harness({ creds })
    expect(h.sock.authState.creds.me).toBeUndefined()
    expect((h.sock.authState.creds as { pairingCode?: string }).pairingCode).toBeUndefined()
  })
})

describe('pairing-code helpers', () => {
  it('registrationEndsAt follows Baileys: 60 s for the first ref, 20 s for each other', () => {
    expect(registrationEndsAt(1_000, 6)).toBe(1_000 + 160_000)
    expect(registrationEndsAt(1_000, 1)).toBe(61_000)
    expect(registrationEndsAt(1_000, 0)).toBe(61_000)
  })

  it('isCodePlaceholder: a number without device nor signed identity; a linked device is not one', () => {
    expect(isCodePlaceholder({ me: { id: '15550000001@s.whatsapp.net' } })).toBe(true)
    expect(isCodePlaceholder({ me: { id: '15550000001:4@s.whatsapp.net' } })).toBe(false)
    expect(isCodePlaceholder({ me: undefined })).toBe(false)
    expect(
      isCodePlaceholder({ me: { id: '15550000001@s.whatsapp.net' }, account: { details: new Uint8Array(1) } }),
    ).toBe(false)
  })

  it('qrWithAdvSecret swaps the fourth field of a linked-devices QR only', () => {
    expect(qrWithAdvSecret(QR('OLD'), 'NEW')).toBe(QR('NEW'))
    expect(qrWithAdvSecret('not a QR', 'NEW')).toBe('not a QR')
    expect(qrWithAdvSecret('https://wa.me/settings/linked_devices#a,b', 'NEW')).toBe(
      'https://wa.me/settings/linked_devices#a,b',
    )
  })
})
