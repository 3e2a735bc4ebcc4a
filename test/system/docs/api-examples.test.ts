/**
 * Keeps docs/api.md's examples true: every request example of its "Endpoints, with examples" is replayed, in order, against the real gateway
 * and the sandbox's built-in demo world, with a session paired as Alice. The status must match, error bodies word
 * for word, and success bodies field for field with the same value types (ids and URLs differ from run to run).
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { docSection } from '../../support/readme.js'
import { mediaServer } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { waitFor } from '../../support/wait-for.js'

interface Example {
  title: string
  method: string
  route: string
  headers: Record<string, string>
  body?: string
  status: number
  response: unknown
}

function readExamples(): Example[] {
  const api = docSection('docs/api.md', 'Endpoints, with examples')
  const blocks = [...api.matchAll(/^### (.+)$|```http\n([\s\S]*?)```\n```json\n(\d{3}) ([\s\S]*?)```/gm)]
  const out: Example[] = []
  let title = ''
  for (const b of blocks) {
    if (b[1]) {
      title = b[1]
      continue
    }
    const [head, ...rest] = b[2]!.split('\n\n')
    const [requestLine, ...headerLines] = head!.trim().split('\n')
    const [method, route] = requestLine!.split(' ')
    const headers = Object.fromEntries(
      headerLines.map(l => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]),
    )
    const body = rest.join('\n\n').trim() || undefined
    out.push({
      title,
      method: method!,
      route: route!,
      headers,
      body,
      status: Number(b[3]),
      response: JSON.parse(b[4]!),
    })
  }
  return out
}

/** The shape of a JSON value: keys and value types, recursively; an array is the set of its elements' shapes. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return [...new Set(v.map(e => JSON.stringify(shape(e))))].sort()
  if (v === null) return 'null'
  if (typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map(k => [k, shape((v as Record<string, unknown>)[k])]),
    )
  return typeof v
}

const examples = readExamples()
/** The example credentials every request of the examples carries. */
const EXAMPLE_ID = 'kefG0UDa3leSW1ibIUDY1_7j'
const EXAMPLE_SECRET = 'nuMgDQrvxzZVZ63ANj3P2VxN'

describe('docs/api.md: the examples', () => {
  // The sandbox's built-in demo world: Alice, Bob, Carol, the Team group, the News channel.
  // the proxy examples name a proxy on loopback (nothing listens there: they are removed before any reconnect)
  const alice = pairedGateway('15550000001', { env: { SESSION_PROXY_ALLOW_PRIVATE: 'true' } })
  let media: Awaited<ReturnType<typeof mediaServer>>

  beforeAll(async () => {
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer()
    media = await mediaServer({ '/photo.jpg': { body: jpeg, type: 'image/jpeg' } })
    // the account name arrives with the app-state sync, and its restrictions are read, shortly after the connection
    // opens
    const settled = (body: { name: string; restrictions?: unknown }) => !!body.name && !!body.restrictions
    await waitFor(
      'the account name and restrictions',
      async () => settled((await alice.gw.session(alice.session)).body),
      10_000,
      100,
    )
  })
  afterAll(async () => {
    await media?.close()
  })

  it('documents every endpoint', () => {
    const documented = new Set(
      examples.map(e => `${e.method} ${e.route.split('?')[0]!.replace(/\/group\/\d+@g\.us$/, '/group/{groupId}')}`),
    )
    for (const endpoint of [
      'POST /session',
      'GET /session',
      'POST /message',
      'POST /status',
      'POST /typing',
      'GET /group',
      'GET /group/{groupId}',
      'GET /group/member',
      'GET /channel',
      'GET /channel/message',
      'POST /session/reset',
      'POST /session/view-link',
      'GET /session/qr',
      'POST /session/pairing-code',
      'GET /session/proxy',
      'PUT /session/proxy',
      'DELETE /session/proxy',
      'DELETE /session',
    ]) {
      expect(documented, endpoint).toContain(endpoint)
    }
  })

  it('answers each example as docs/api.md shows, in order', async () => {
    // The examples' credentials stand for the paired session's, its example view token for the last one
    // POST /session/view-link handed out; any other header value is sent as written.
    const real = new Map([
      [EXAMPLE_ID, alice.session.id],
      [EXAMPLE_SECRET, alice.session.sessionId],
    ])
    for (const ex of examples) {
      const headers = Object.fromEntries(Object.entries(ex.headers).map(([k, v]) => [k, real.get(v) ?? v]))
      const res = await alice.gw.raw(
        ex.method,
        ex.route,
        headers,
        ex.body?.replaceAll('https://example.com', media.base),
      )
      const body = res.body
      if (ex.route === '/session/view-link' && res.status === 200) {
        real.set(
          new URLSearchParams(new URL((ex.response as { url: string }).url).hash.slice(1)).get('view')!,
          new URLSearchParams(new URL(body.url).hash.slice(1)).get('view')!,
        )
      }
      const where = `${ex.title}: ${ex.method} ${ex.route} ${ex.body ?? ''}`
      expect(res.status, where).toBe(ex.status)
      if (ex.status >= 400) expect(body, where).toEqual(ex.response)
      else expect(shape(body), where).toEqual(shape(ex.response))
    }
  }, 120_000)
})
