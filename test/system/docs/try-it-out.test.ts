/**
 * `/docs` "Try it out" on POST /session sends the example body Swagger UI makes from the document the gateway
 * serves: that body must create a session that works, one whose QR shows up (an example proxy in it, at an address
 * that leads nowhere, once made every such session wait for a QR that never came).
 */
import { describe, expect, it } from 'vitest'
import { waitForSession } from '../../../src/client/index.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'

interface SchemaLike {
  type?: string
  example?: unknown
  examples?: unknown[]
  properties?: Record<string, SchemaLike>
}

/** What Swagger UI fills a request body with: the media type's example, else one built from the schema (each
 * property's example, else a placeholder of its type). */
function tryItOutBody(media: { example?: unknown; schema?: SchemaLike }): unknown {
  if (media.example !== undefined) return media.example
  const sample = (schema: SchemaLike): unknown => {
    if (schema.example !== undefined) return schema.example
    if (schema.examples?.length) return schema.examples[0]
    if (schema.properties)
      return Object.fromEntries(Object.entries(schema.properties).map(([name, prop]) => [name, sample(prop)]))
    return schema.type === 'string' ? 'string' : 0
  }
  return sample(media.schema ?? {})
}

describe('/docs "Try it out"', () => {
  const world = gatewayWorld()

  it("POST /session's example body creates a session whose QR shows up", async () => {
    const doc = (await (await fetch(`${world.gw.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, object> } }>>
    }
    const body = tryItOutBody(doc.paths['/session']!.post!.requestBody!.content['application/json']!)
    const created = await fetch(`${world.gw.url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const session = (await created.json()) as { id: string; sessionId: string }
    expect(created.status, JSON.stringify(session)).toBe(200)
    const shown = await waitForSession(world.gw.api, session, s => s.qrcode !== '', { timeoutMs: 30_000 })
    expect(shown.qrcode).not.toBe('')
  }, 60_000)
})
