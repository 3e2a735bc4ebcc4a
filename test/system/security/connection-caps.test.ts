/**
 * The connection caps of the real gateway process (main.ts hands the same guard to its server and its /metrics):
 * one address holding CONNECTIONS_PER_CLIENT connections gets its next one refused with 503 and Retry-After in the
 * spec's shape, another address is served meanwhile, and /metrics counts the refusal. Loopback addresses only.
 */
import { once } from 'node:events'
import net from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { parseProm, sumOf } from '../../support/prom-text.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'

describe('connection caps of the real gateway', () => {
  const world = gatewayWorld({ env: { CONNECTIONS_PER_CLIENT: '4' } })
  const sockets: net.Socket[] = []
  afterAll(() => {
    for (const socket of sockets) socket.destroy()
  })

  /** A connection from `from` that sends nothing; `answer` is what the gateway wrote before closing it. */
  async function connect(from: string): Promise<{ answer: Promise<string> }> {
    const { hostname, port } = new URL(world.gw.url)
    const socket = net.connect({ host: hostname, port: Number(port), localAddress: from })
    sockets.push(socket)
    socket.on('error', () => {})
    const chunks: Buffer[] = []
    socket.on('data', chunk => chunks.push(chunk))
    await once(socket, 'connect')
    return { answer: once(socket, 'close').then(() => Buffer.concat(chunks).toString()) }
  }

  it('refuses the connection past CONNECTIONS_PER_CLIENT with 503, serves another address, and counts it', async () => {
    for (let i = 0; i < 4; i++) await connect('127.0.0.2')
    const refused = await (await connect('127.0.0.2')).answer
    const [head = '', body = ''] = refused.split('\r\n\r\n')
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 503 too many connections from this client, retry in 1 s')
    expect(head.toLowerCase()).toContain('retry-after: 1\r\n')
    expect(JSON.parse(body)).toEqual({
      statusCode: 503,
      message: 'too many connections from this client, retry in 1 s',
    })

    const served = await fetch(`${world.gw.url}/healthz`) // from 127.0.0.1
    expect(served.status).toBe(200)
    const metrics = parseProm(await (await fetch(`${world.gw.url}/metrics`)).text())
    expect(sumOf(metrics, 'gateway_http_connections_refused_total', { cap: 'client' })).toBe(1)
    expect(sumOf(metrics, 'gateway_http_connections')).toBeGreaterThanOrEqual(5) // the four held, and this scrape's
  })
})
