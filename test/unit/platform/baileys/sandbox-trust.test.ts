import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchSandboxTrust } from '../../../../src/platform/baileys/sandbox-trust.js'
import { onLoopback, type OnLoopback, refusedPort } from '../../../support/loopback-server.js'

let served: OnLoopback<http.Server>
let base: string
const trust = {
  wsUrl: 'wss://127.0.0.1:4443/ws/chat',
  rootPublicKey: Buffer.alloc(32, 3).toString('base64'),
  caCert: '-----BEGIN CERTIFICATE-----\n...',
}

beforeAll(async () => {
  served = await onLoopback(
    http.createServer((req, res) => {
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
    }),
  )
  base = served.url
})
afterAll(() => served.close())

describe('sandbox trust', () => {
  it('reads wsUrl, root key and CA (trailing slash tolerated)', async () => {
    expect(await fetchSandboxTrust(`${base}/`)).toEqual(trust)
  })

  it('says clearly when the sandbox is unreachable or answers badly', async () => {
    const port = await refusedPort()
    await expect(fetchSandboxTrust(`http://127.0.0.1:${port}`)).rejects.toThrow(
      new RegExp(`^sandbox unreachable at http://127\\.0\\.0\\.1:${port}/trust: .*ECONNREFUSED`),
    )
    await expect(fetchSandboxTrust(`${base}/nothing`)).rejects.toThrow('failed: 404')
    await expect(fetchSandboxTrust(`${base}/bad`)).rejects.toThrow('lacks wsUrl, rootPublicKey or caCert')
  })
})
