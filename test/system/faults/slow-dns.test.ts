/**
 * A tenant whose media URLs point at a nameserver that never answers holds up nobody else (docs/operating.md). On a
 * real one-shard gateway whose media DNS is a loopback server: one session sends documents from a host the server
 * never answers, and gets `500 error parser file from url dns lookup of ... timed out`, while its neighbour's media
 * sends, from a host the same server does answer, and its GET /session all succeed in the meantime.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inbox, launchGateway, mediaServer, pair, type Gateway, type Session } from '../../support/system/harness.js'
import { startDnsServer, type DnsServer } from '../../support/fakes/dns-server.js'
import { ALICE, BOB, CAROL, faultWorld } from '../../support/system/faults.js'
import { waitFor } from '../../support/wait-for.js'

const PDF = { body: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), type: 'application/pdf' }

describe("a silent nameserver for one tenant's media", () => {
  let world: Awaited<ReturnType<typeof faultWorld>>
  let dns: DnsServer
  let media: Awaited<ReturnType<typeof mediaServer>>
  let gw: Gateway
  let slow: Session
  let neighbour: Session

  beforeAll(async () => {
    world = await faultWorld()
    dns = await startDnsServer({ 'slow.test': 'silent', 'fast.test': { a: ['127.0.0.1'] } })
    media = await mediaServer({ '/doc.pdf': PDF })
    gw = await launchGateway(world.sandbox.url, world.dataDir, {
      SHARDS: '1',
      SEND_RATE_PER_SECOND: '0',
      MEDIA_DNS_SERVERS: dns.address,
      MEDIA_DNS_TIMEOUT_MS: '3000',
    })
    slow = await gw.createSession()
    await pair(gw, world.sandbox.url, slow, ALICE)
    neighbour = await gw.createSession()
    await pair(gw, world.sandbox.url, neighbour, CAROL)
  }, 180_000)
  afterAll(async () => {
    await gw?.proc.stop()
    await media?.close()
    await dns?.close()
    await world?.cleanup()
  })

  it("times out that tenant's sends clearly while its neighbour's media and GET /session go through", async () => {
    const port = new URL(media.base).port
    const doc = (host: string, name: string) => ({
      phone: BOB,
      type: 'document',
      document: { url: `http://${host}:${port}/doc.pdf`, mimetype: 'application/pdf', name, size: PDF.body.length },
    })
    const stuck = [1, 2, 3].map(i => gw.call('POST', '/message', slow, doc('slow.test', `slow-${i}.pdf`)))
    // Wait until the silent server holds a query: the slow tenant is now waiting on DNS.
    await waitFor(
      'a query for slow.test at the silent DNS server',
      () => dns.queries.some(q => q.startsWith('slow.test')),
      5_000,
      50,
    )

    const sent: string[] = []
    for (let i = 1; i <= 3; i++) {
      const r = await gw.call('POST', '/message', neighbour, doc('fast.test', `fast-${i}.pdf`))
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      sent.push(r.body.messageId)
      expect((await gw.session(neighbour)).status).toBe(200)
    }
    // A 200 means the server acknowledged; the phone decrypts it a moment later.
    await waitFor(
      "the neighbour's documents at Bob",
      async () => {
        const got = await inbox(world.sandbox.url, BOB)
        return sent.every(id => got.some(m => m.id === id)) || undefined
      },
      60_000,
    )

    for (const r of await Promise.all(stuck)) {
      expect(r).toEqual({
        status: 500,
        body: {
          statusCode: 500,
          message: 'error parser file from url dns lookup of slow.test timed out after 3000 ms',
        },
      })
    }
  }, 120_000)
})
