/**
 * The link's connection events (src/platform/baileys/link/connection-events.ts, wired by baileys-link.ts) on a fake
 * socket: QR, pairing, open, name and close mapped to link events, creds persisted, close and logout reported once.
 */
import { initAuthCreds } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import type { CloseReason } from '../../../../../src/platform/link.js'
import { closeEvents, harness } from '../../../../support/fakes/baileys-link-harness.js'
import { waitFor } from '../../../../support/wait-for.js'

describe('baileys link: lifecycle', () => {
  it('maps qr, pairing, open, name and a 515 close; persists creds', async () => {
    const h = await harness()
    expect(h.sock.config.browser).toEqual(['Mac OS', 'Chrome', expect.any(String)])
    expect(h.sock.config.syncFullHistory).toBe(false)
    h.sock.ev.emit('connection.update', { qr: 'QR-1' })
    h.sock.authState.creds.me = { id: '5500000000000:7@s.whatsapp.net', lid: '900:7@lid' }
    h.sock.ev.emit('creds.update', { me: h.sock.authState.creds.me })
    h.sock.ev.emit('connection.update', { isNewLogin: true, qr: undefined })
    h.sock.ev.emit('connection.update', { connection: 'open' })
    h.sock.authState.creds.me.name = 'Ana'
    h.sock.ev.emit('creds.update', { me: h.sock.authState.creds.me })
    h.sock.end(Object.assign(new Error('Stream Errored (restart required)'), { output: { statusCode: 515 } }))
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    expect(h.events).toEqual([
      ['qr', 'QR-1'],
      ['paired', { id: '5500000000000:7@s.whatsapp.net', lid: '900:7@lid' }],
      ['open', { id: '5500000000000:7@s.whatsapp.net', lid: '900:7@lid', name: '' }],
      ['name', 'Ana'],
      ['close', 'restart-required', '515 Stream Errored (restart required)'],
    ])
    // quiet by default: the late name brings `unavailable`, never `available` (which mutes the owner's phone)
    expect(h.sock.presence).toEqual([['unavailable', undefined]])
    expect(h.sock.config.markOnlineOnConnect).toBe(false)
    await waitFor('creds writes', () => h.credsWrites.length >= 2, 5_000, 10)
    expect((h.credsWrites.at(-1) as { me: { name: string } }).me.name).toBe('Ana')
  })

  it('PLATFORM_ONLINE_ON_CONNECT shows the account online; PLATFORM_DEVICE_NAME names the device', async () => {
    const h = await harness({ env: { PLATFORM_ONLINE_ON_CONNECT: 'true', PLATFORM_DEVICE_NAME: 'Front desk' } })
    expect(h.sock.config.markOnlineOnConnect).toBe(true)
    expect(h.sock.config.browser).toEqual(['Front desk', 'Chrome', expect.any(String)])
    h.sock.authState.creds.me = { id: '5500000000000:7@s.whatsapp.net' }
    h.sock.ev.emit('connection.update', { connection: 'open' })
    h.sock.authState.creds.me.name = 'Ana'
    h.sock.ev.emit('creds.update', { me: h.sock.authState.creds.me })
    expect(h.sock.presence).toEqual([['available', undefined]])
  })

  it('QR refs ending before a scan is qr-expired', async () => {
    const h = await harness()
    h.sock.end(Object.assign(new Error('QR refs attempts ended'), { output: { statusCode: 408 } }))
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    expect(closeEvents(h)[0]?.[1]).toBe<CloseReason>('qr-expired')
  })

  it('close() is idempotent and reports closed-by-us once', async () => {
    const h = await harness()
    h.sock.open()
    await h.link.close()
    await h.link.close()
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    await new Promise(r => setTimeout(r, 30))
    expect(closeEvents(h)).toHaveLength(1)
    expect(closeEvents(h)[0]?.[1]).toBe('closed-by-us')
    expect(h.sock.ended).toBe(true)
    await expect(h.link.sendMessage({ kind: 'phone', phone: '1' }, { type: 'text', text: 'x' })).rejects.toThrow(
      'session not connected',
    )
  })

  it('logout unlinks on the platform and still reports closed-by-us', async () => {
    const h = await harness({ creds: initAuthCreds() })
    h.sock.open()
    await h.link.logout()
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    expect(closeEvents(h)).toEqual([['close', 'closed-by-us', expect.any(String)]])
  })
})
