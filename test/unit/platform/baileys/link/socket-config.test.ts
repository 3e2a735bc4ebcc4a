/**
 * The socket the link configures (src/platform/baileys/link/socket-config.ts) on a fake socket: sandbox mode's root
 * key, socket URL and agents; the web client version it names.
 */
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { harness } from '../../../../support/fakes/baileys-link-harness.js'

describe('baileys link: lifecycle', () => {
  it('sandbox mode overrides the root key, socket URL and agents', async () => {
    const saved = WA_CERT_DETAILS.PUBLIC_KEY
    try {
      const h = await harness({ sandbox: true })
      expect(Buffer.from(WA_CERT_DETAILS.PUBLIC_KEY).equals(Buffer.alloc(32, 7))).toBe(true)
      expect(h.sock.config.waWebSocketUrl).toBe('wss://127.0.0.1:9/ws')
      expect(h.sock.config.fetchAgent).toBeDefined()
      expect(h.sock.config.agent).toBe(h.sock.config.fetchAgent)
      expect((h.sock.config.options as { dispatcher?: unknown }).dispatcher).toBeDefined()
      await h.link.close()
    } finally {
      WA_CERT_DETAILS.PUBLIC_KEY = saved
    }
  })

  it('names the web client version it is given', async () => {
    const given = await harness({ clientVersion: [2, 3000, 1999999999] })
    expect(given.sock.config.version).toEqual([2, 3000, 1999999999])
    await given.link.close()
  })

  it('without one, leaves Baileys its bundled version', async () => {
    const bundled = await harness()
    expect(bundled.sock.config.version).toBeUndefined()
    await bundled.link.close()
  })
})
