import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { loadSettings } from '../../../src/gateway-settings.js'
import { createBaileysLink } from '../../../src/platform/baileys/baileys-link.js'
import defaultExport from '../../../src/platform/baileys/baileys-link.js'
import { refusedPort } from '../../support/loopback-server.js'
import { waitFor } from '../../support/wait-for.js'

/** The real Baileys socket (no mock), pointed at a loopback port nobody listens on. */
describe('baileys link with the real Baileys socket', () => {
  it('default and named exports are the same factory', () => {
    expect(defaultExport).toBe(createBaileysLink)
  })

  it('a refused connection is reported once as connection-lost, and close() afterwards is harmless', async () => {
    const port = await refusedPort()
    const closes: Array<[string, string]> = []
    const link = createBaileysLink({
      id: 'real',
      logger: pino({ level: 'silent' }),
      settings: loadSettings({}),
      auth: {
        readCreds: async () => undefined,
        writeCreds: async () => undefined,
        keys: { get: async () => ({}), set: async () => undefined },
        clear: async () => undefined,
      },
      contacts: { all: async () => [], upsert: async () => undefined, clear: async () => undefined },
      sandbox: {
        wsUrl: `ws://127.0.0.1:${port}/ws`,
        rootPublicKey: Buffer.alloc(32, 1).toString('base64'),
        caCert: '',
      },
      events: {
        qr: () => {},
        paired: () => {},
        open: () => {},
        name: () => {},
        close: (r, d) => closes.push([r, d]),
        restrictions: () => {},
        conversations: () => {},
      },
    })
    await waitFor('the close', () => closes.length > 0, 20_000, 20)
    expect(closes).toHaveLength(1)
    expect(closes[0]?.[0]).toBe('connection-lost')
    expect(closes[0]?.[1]).toContain('ECONNREFUSED')
    await link.close()
    await expect(link.listGroups()).rejects.toThrow('session not connected')
    expect(closes).toHaveLength(1)
  })
})
