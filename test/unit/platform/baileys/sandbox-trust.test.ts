import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchSandboxTrust } from '../../../../src/platform/baileys/sandbox-trust.js'

let server: http.Server
let base: string
const trust = {
  wsUrl: 'wss://127.0.0.1:4443/ws/chat',
  rootPublicKey: Buffer.alloc(32, 3).toString('base64'),
  caCert: '-----BEGIN CERTIFICATE-----\n...',
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/trust') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(trust))
      return
    }
    if (req.url === '/bad/trust') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"wsUrl":"x"}')
      return
    }
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>(r => server.close(() => r()))
})

describe('sandbox trust', () => {
  it('reads wsUrl, root key and CA (trailing slash tolerated)', async () => {
    expect(await fetchSandboxTrust(`${base}/`)).toEqual(trust)
  })

  it('says clearly when the sandbox is unreachable or answers badly', async () => {
    const closed = http.createServer()
    await new Promise<void>(r => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>(r => closed.close(() => r()))
    await expect(fetchSandboxTrust(`http://127.0.0.1:${port}`)).rejects.toThrow(
      new RegExp(`^sandbox unreachable at http://127\\.0\\.0\\.1:${port}/trust: .*ECONNREFUSED`),
    )
    await expect(fetchSandboxTrust(`${base}/nothing`)).rejects.toThrow('failed: 404')
    await expect(fetchSandboxTrust(`${base}/bad`)).rejects.toThrow('lacks wsUrl, rootPublicKey or caCert')
  })
})
