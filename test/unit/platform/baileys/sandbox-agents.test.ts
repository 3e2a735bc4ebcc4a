import https from 'node:https'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxAgents, type SandboxAgents } from '../../../../src/platform/baileys/sandbox-agents.js'
import { onLoopback, type OnLoopback } from '../../../support/loopback-server.js'

let served: OnLoopback<https.Server>
let url: string
let agents: SandboxAgents

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  served = await onLoopback(
    https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => {
      res.end('media-bytes')
    }),
  )
  url = `${served.url}/blob`
  agents = sandboxAgents(pems.cert)
})
afterAll(async () => {
  agents.destroy()
  await served.close()
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
