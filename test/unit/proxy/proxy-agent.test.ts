/**
 * The agents and the fetch dispatcher that carry a session's connections through its proxy (src/proxy), against a
 * real SOCKS5 and a real HTTP proxy on loopback (test/support/proxies): the target sees the proxy's outgoing
 * address, failures are ProxyErrors naming the proxy without its password, and a proxy that never answers ends the
 * attempt on time and leaves no socket behind.
 */
import http from 'node:http'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { forwardAgent, ProxyError, tunnelAgent } from '../../../src/proxy/proxy-agent.js'
import { proxyDispatcher } from '../../../src/proxy/proxy-dispatcher.js'
import { parseProxyUrl } from '../../../src/proxy/proxy-url.js'
import { HttpProxy } from '../../support/proxies/http-proxy.js'
import { Socks5Proxy } from '../../support/proxies/socks5-proxy.js'
import { waitFor } from '../../support/wait-for.js'
import { onLoopback, type OnLoopback } from '../../support/loopback-server.js'

const PASSWORD = 'pw-Secret-42'

/** A loopback server that answers with the address each request came from. */
let origin: OnLoopback<http.Server>
let originUrl = ''
const socks = new Socks5Proxy({ username: 'alice', password: PASSWORD })
const httpProxy = new HttpProxy({ username: 'bob', password: PASSWORD })

beforeAll(async () => {
  origin = await onLoopback(http.createServer((req, res) => res.end(req.socket.remoteAddress)))
  originUrl = `${origin.url}/`
  await Promise.all([socks.listen(), httpProxy.listen()])
})

afterAll(async () => {
  await Promise.all([socks.close(), httpProxy.close(), origin.close()])
})

/** GET through an agent; resolves with the body or rejects with the request's error. */
function get(url: string, agent: http.Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, res => {
        let body = ''
        res.on('data', chunk => {
          body += chunk
        })
        res.on('end', () => resolve(body))
      })
      .on('error', reject)
  })
}

const route = (url: string) => parseProxyUrl(url)!
const options = { timeoutMs: 2_000 }

describe('tunnelAgent and forwardAgent', () => {
  it('carry requests through a SOCKS5 proxy (both schemes) and an HTTP proxy: the target sees the proxy', async () => {
    expect(await get(originUrl, tunnelAgent(route(socks.url()), options))).toBe('127.0.0.2')
    expect(await get(originUrl, tunnelAgent(route(socks.url('socks5h')), options))).toBe('127.0.0.2')
    expect(await get(originUrl, tunnelAgent(route(httpProxy.url()), options))).toBe('127.0.0.3')
    expect(await get(originUrl, forwardAgent(route(httpProxy.url()), options))).toBe('127.0.0.3')
  })

  it('a wrong password is a ProxyError that names the proxy without its password', async () => {
    for (const url of [socks.url().replace(PASSWORD, 'wrong'), httpProxy.url().replace(PASSWORD, 'wrong')]) {
      const err = await get(originUrl, tunnelAgent(route(url), options)).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ProxyError)
      expect((err as Error).message).toContain(':***@127.0.0.1:')
      expect((err as Error).message).not.toContain('wrong')
    }
    expect(
      (await get(originUrl, tunnelAgent(route(httpProxy.url().replace(PASSWORD, 'x')), options)).catch(e => e)).message,
    ).toContain('refused the tunnel (HTTP 407)')
  })

  it('a proxy that is not there is a ProxyError', async () => {
    const err = await get(originUrl, tunnelAgent(route('socks5://127.0.0.1:1'), options)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProxyError)
    expect((err as Error).message).toMatch(/^proxy socks5:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/)
  })

  it('a proxy that accepts and never answers ends the attempt on time, and its socket is closed', async () => {
    const open = new Set<net.Socket>()
    const silent = await onLoopback(
      net.createServer(socket => {
        socket.resume() // reads what comes (and so sees the client hang up), answers nothing
        open.add(socket)
        socket.on('close', () => open.delete(socket))
      }),
    )
    const port = silent.port
    try {
      for (const scheme of ['http', 'socks5']) {
        const agent = tunnelAgent(route(`${scheme}://u:${PASSWORD}@127.0.0.1:${port}`), { timeoutMs: 300 })
        const err = await get(originUrl, agent).catch((e: unknown) => e)
        expect((err as Error).message, scheme).toMatch(/did not answer within \d+ ms|timed out/i)
        expect((err as Error).message).not.toContain(PASSWORD)
        await waitFor(`the ${scheme} attempt's socket closed`, () => open.size === 0, 5_000, 50)
      }
    } finally {
      await silent.close()
    }
  })

  it("a tenant's proxy host is resolved by the given look-up, which may refuse it", async () => {
    const refuse: net.LookupFunction = (host, _opts, callback) =>
      (callback as (err: Error | null, address: string, family: number) => void)(
        new Error(`${host} resolves to a private address`),
        '',
        4,
      )
    for (const scheme of ['socks5', 'http']) {
      const agent = tunnelAgent(route(`${scheme}://localhost:${scheme === 'http' ? httpProxy.port : socks.port}`), {
        timeoutMs: 2_000,
        lookup: refuse,
      })
      expect(String(await get(originUrl, agent).catch((e: Error) => e.message)), scheme).toContain('private address')
    }
  })
})

describe('proxyDispatcher (what Baileys fetches with)', () => {
  it('sends fetch through a SOCKS5 and an HTTP proxy', async () => {
    for (const [url, from] of [
      [socks.url(), '127.0.0.2'],
      [socks.url('socks5h'), '127.0.0.2'],
      [httpProxy.url(), '127.0.0.3'],
    ] as const) {
      const dispatcher = proxyDispatcher(route(url), options)
      const res = await fetch(originUrl, { dispatcher } as RequestInit)
      expect(await res.text(), url).toBe(from)
      await dispatcher.close()
    }
  })
})
