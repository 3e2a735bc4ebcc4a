/**
 * @module test/support/ssrf-world
 * The world of the SSRF guard's tests: two loopback servers on one port play the parts, 127.0.0.1 "the internet"
 * (the test guard lets it through: `/file.bin`, `/jump?to=`) and 127.0.0.2 "the internal service" that must never
 * see a request (`hits` counts both); a stub DNS, the test's guard, and the outcome of a download as the client
 * would read it. Call `ssrfWorld()` at a test file's top level: it registers its own hooks.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import type { LookupAddress } from 'node:dns'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import { createAddressGuard, type Resolve } from '../../src/media/address-guard.js'
import { downloadToTemp, type DownloadOptions } from '../../src/media/download.js'
import { isPrivateAddress } from '../../src/media/private-address.js'
import { GatewayError } from '../../src/protocol/errors.js'

export const PUBLIC = '127.0.0.1'
export const INTERNAL = '127.0.0.2'

/** The servers' port, the requests each server got (reset before each test), and each test's download options. */
export const world = { port: 0, hits: { public: 0, internal: 0 }, base: {} as DownloadOptions, tempDir: '' }
const servers: http.Server[] = []

function serve(host: string, onRequest: http.RequestListener, listenPort: number): Promise<http.Server> {
  const server = http.createServer(onRequest)
  servers.push(server)
  return new Promise(resolve => server.listen(listenPort, host, () => resolve(server)))
}

export function ssrfWorld(): void {
  beforeAll(async () => {
    const pub = await serve(
      PUBLIC,
      (req, res) => {
        world.hits.public++
        const url = new URL(req.url ?? '/', 'http://x')
        if (url.pathname === '/file.bin') {
          res.writeHead(200)
          res.end(Buffer.alloc(100, 7))
          return
        }
        if (url.pathname === '/jump') {
          res.writeHead(302, { location: url.searchParams.get('to') ?? '/' })
          res.end()
          return
        }
        res.writeHead(404)
        res.end()
      },
      0,
    )
    world.port = (pub.address() as AddressInfo).port
    // same port on the second loopback address, so one host name can point at either
    await serve(
      INTERNAL,
      (_req, res) => {
        world.hits.internal++
        res.writeHead(200)
        res.end('secret')
      },
      world.port,
    )
  })

  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections()
      await new Promise<void>(resolve => s.close(() => resolve()))
    }
  })

  beforeEach(async () => {
    world.hits.public = 0
    world.hits.internal = 0
    world.tempDir = await mkdtemp(path.join(os.tmpdir(), 'ssrf-test-'))
    world.base = {
      maxBytes: 1_000_000,
      timeoutMs: 15_000,
      maxRedirects: 5,
      blockPrivate: true,
      tempDir: world.tempDir,
      urlField: 'image.url',
    }
  })
  afterEach(async () => {
    await rm(world.tempDir, { recursive: true, force: true })
  })
}

/** A stub DNS: each name answers from its list of answers, one answer per query (the last one repeats). */
export function stubDns(answers: Record<string, string[][]>) {
  const queries: string[] = []
  const resolve: Resolve = async hostname => {
    queries.push(hostname)
    const list = answers[hostname]
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    const n = queries.filter(q => q === hostname).length
    const ips = list[Math.min(n, list.length) - 1]!
    return ips.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return { resolve, queries }
}

/** The test's policy: the real one, except that 127.0.0.1 stands for a public host. */
export const testGuard = (resolve: Resolve) =>
  createAddressGuard({ resolve, isRefused: ip => ip !== PUBLIC && isPrivateAddress(ip) })

export async function outcome(url: string, options: DownloadOptions): Promise<string> {
  try {
    const file = await downloadToTemp(url, options)
    await file.dispose()
    return 'downloaded'
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError)
    return `${(err as GatewayError).status} ${(err as GatewayError).message}`
  }
}

export const REFUSED = '400 image.url leads to a private or local address'
