import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxAgents, type SandboxAgents } from '../../../../src/platform/baileys/sandbox-agents.js'

let server: https.Server
let url: string
let agents: SandboxAgents

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  server = https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => {
    res.end('media-bytes')
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/blob`
  agents = sandboxAgents(pems.cert)
})
afterAll(async () => {
  agents.destroy()
  server.closeAllConnections()
  await new Promise<void>(r => server.close(() => r()))
})

describe('sandbox TLS trust', () => {
  it('global fetch with the dispatcher trusts the sandbox CA (Baileys downloads)', async () => {
    const res = await fetch(url, { dispatcher: agents.dispatcher } as RequestInit)
    expect(await res.text()).toBe('media-bytes')
  })

  it('node https with the agent trusts it too (Baileys uploads), and without it the cert is refused', async () => {
    const get = (agent?: https.Agent) =>
      new Promise<string>((resolve, reject) => {
        https
          .get(url, agent ? { agent } : {}, res => {
            let body = ''
            res.on('data', c => (body += c)).on('end', () => resolve(body))
          })
          .on('error', reject)
      })
    expect(await get(agents.https)).toBe('media-bytes')
    await expect(get()).rejects.toThrow(/self[- ]signed|unable to verify/i)
  })
})
