/**
 * The same random requests as test/unit/http/app/property.test.ts, fewer of them, against a real gateway process (worker threads,
 * storage, Baileys) with one session paired on the sandbox, so the real path is fuzzed too: every answer within
 * the bound, an allowed status, the spec's shape; the process stays up and the session connected. Bodies may only
 * name loopback media URLs (a sanitiser rewrites any other URL), so nothing reaches past this machine.
 */
import fc from 'fast-check'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mediaServer } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { endpoints, requestFor, type GenOptions } from '../../support/property/arbitraries.js'
import { exchange, expectWellFormed, rawRequest } from '../../support/property/raw-http.js'

const GROUP = '120363000000000001@g.us'
const CHANNEL = '120363000000000009@newsletter'

/** Any string that looks like a URL and is not one of ours becomes a plain word. */
function sanitise(value: unknown, allowed: string): unknown {
  if (typeof value === 'string') return value.includes('://') && !value.startsWith(allowed) ? 'not-a-url' : value
  if (Array.isArray(value)) return value.map(v => sanitise(v, allowed))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sanitise(v, allowed)]))
  }
  return value
}

function sanitiseBody(body: Buffer | undefined, allowed: string): Buffer | undefined {
  if (body === undefined) return body
  try {
    return Buffer.from(JSON.stringify(sanitise(JSON.parse(body.toString('utf8')), allowed)))
  } catch {
    return body // not JSON: the gateway will refuse it before any download
  }
}

describe('random requests against a real gateway process', () => {
  // The default world: Alice, Bob, Carol, a group and a channel.
  const alice = pairedGateway('15550000001', {
    env: { ACK_TIMEOUT_MS: '5000', QUERY_TIMEOUT_MS: '5000', MEDIA_TIMEOUT_MS: '5000', READ_RATE_PER_SECOND: '0' },
    timeoutMs: 180_000,
  })
  let media: Awaited<ReturnType<typeof mediaServer>>
  let port: number

  beforeAll(async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer()
    media = await mediaServer({ '/a.jpg': { body: jpeg, type: 'image/jpeg' } })
    port = Number(new URL(alice.gw.url).port)
  })
  afterAll(async () => {
    await media?.close()
  })

  const options = (): GenOptions => ({
    auth: { id: alice.session.id, 'session-id': alice.session.sessionId },
    media: [`${media.base}/a.jpg`, `${media.base}/missing.mp4`],
    groupId: GROUP,
    channelId: CHANNEL,
  })

  // Reset and delete would end the one paired session; their authentication and parsing are fuzzed in test/unit/http/app/property.test.ts.
  const names = [
    'POST /session',
    'GET /session',
    'POST /session/pairing-code', // 409 for the paired session, after validation and the rate
    'POST /message',
    'POST /status',
    'POST /typing',
    'GET /group',
    'GET /group/member',
    'GET /group/{id}',
    'GET /channel',
    'GET /channel/message',
    'anything else',
  ]

  for (const name of names) {
    it(name, async () => {
      const endpoint = endpoints(options()).find(e => e.name === name)!
      await fc.assert(
        fc.asyncProperty(requestFor(endpoint, options()), async req => {
          const body = sanitiseBody(req.body, media.base)
          const res = await rawRequest(port, { ...req, ...(body ? { body } : {}) }, 30_000)
          expectWellFormed(res, endpoint.allowed, `${req.method} ${req.path}`)
        }),
        { numRuns: name === 'POST /session' ? 8 : 25 },
      )
      expect(alice.gw.proc.child.exitCode).toBe(null)
    }, 300_000)
  }

  it('answers what the HTTP parser refuses in the error shape too (main.ts wires it)', async () => {
    const huge = await exchange(
      port,
      Buffer.from(`GET /session HTTP/1.1\r\nhost: x\r\nid: ${'a'.repeat(20_000)}\r\n\r\n`),
      'huge header',
    )
    expectWellFormed(huge, [431], 'huge header')
    expectWellFormed(await exchange(port, Buffer.from('\u0000garbage\r\n\r\n'), 'garbage'), [400], 'garbage')
  })

  it('leaves the process up and the session connected', async () => {
    expect((await alice.gw.session(alice.session)).body.isConnected).toBe(true)
  })
})
