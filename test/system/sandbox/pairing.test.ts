import { describe, expect, it } from 'vitest'
import { createSandbox } from '../../../src/sandbox/index.js'
import type { World } from '../../../src/sandbox/types.js'
import { connect, fetchTrust, getJson, memoryAuth, postJson } from '../../support/system/baileys-client.js'
import { namedAccounts, sandboxFixture } from '../../support/system/sandbox-fixture.js'

describe('sandbox: handshake, QR, scan, 515, login', () => {
  const world = sandboxFixture({ world: { accounts: namedAccounts({ '15550000001': 'Alice', '15550000002': 'Bob' }) } })

  it('serves /trust with the bound port', () => {
    expect(world.trust.wsUrl).toBe(`ws://127.0.0.1:${world.sandbox.port}/ws/chat`)
    expect(Buffer.from(world.trust.rootPublicKey, 'base64')).toHaveLength(32)
    expect(world.trust.caCert).toContain('BEGIN CERTIFICATE')
  })

  it('pairs an unmodified Baileys client and opens after the 515 restart', async () => {
    const { socket, auth, timings } = await world.login('15550000001')
    try {
      expect(auth.state.creds.me?.id).toBe('15550000001:1@s.whatsapp.net')
      expect(auth.state.creds.me?.lid).toMatch(/^\d+:1@lid$/)
      expect(auth.state.creds.me?.name).toBe('Alice')
      console.info(`[sandbox timings] first QR after ${timings.qrMs} ms; scan → open ${timings.scanToOpenMs} ms`)
    } finally {
      socket.end()
    }
  })

  it('scanning with a phone the world lacks creates that account', async () => {
    const { socket } = await world.login('15550000042')
    try {
      const listed = await getJson<World>(`${world.sandbox.url}/world`)
      expect(listed.accounts.some(a => a.phone === '15550000042')).toBe(true)
    } finally {
      socket.end()
    }
  })

  it('rejects malformed and unknown QR strings with 400', async () => {
    const malformed = await postJson(`${world.sandbox.url}/scan`, { qr: 'hello', phone: '15550000001' })
    expect(malformed.status).toBe(400)
    const unknown = await postJson(`${world.sandbox.url}/scan`, {
      qr: 'https://wa.me/settings/linked_devices#2@nope,AAAA,AAAA,AAAA,1',
      phone: '15550000001',
    })
    expect(unknown.status).toBe(400)
    expect(String(unknown.body.error)).toMatch(/unknown/)
  })

  it('ends with 408 when the QR refs run out', async () => {
    const small = await createSandbox({ port: 0, world: {}, qrRefs: 2 })
    try {
      const t = await fetchTrust(small.url)
      const socket = connect(t, memoryAuth(), { qrTimeout: 1000 })
      const closed = await socket.closed()
      const qrs = socket.updates.filter(u => u.qr).map(u => u.qr)
      expect(closed.statusCode).toBe(408)
      expect(closed.message).toBe('QR refs attempts ended')
      expect(new Set(qrs).size).toBe(2)
    } finally {
      await small.close()
    }
  })

  it('refuses an expired QR', async () => {
    const quick = await createSandbox({ port: 0, world: {}, qrRefs: 1, qrFirstMs: 300 })
    try {
      const t = await fetchTrust(quick.url)
      const socket = connect(t, memoryAuth())
      const qr = await socket.qr()
      await new Promise(r => setTimeout(r, 600))
      const res = await postJson(`${quick.url}/scan`, { qr, phone: '15550000009' })
      expect(res.status).toBe(400)
      expect(String(res.body.error)).toMatch(/expired/)
      socket.end()
    } finally {
      await quick.close()
    }
  })
})
