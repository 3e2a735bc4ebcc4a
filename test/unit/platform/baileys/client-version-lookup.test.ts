/**
 * The lookup of the platform's current web client version (src/platform/baileys/client-version-lookup.ts), on a
 * service worker script and a sandbox /trust served from loopback (nothing here reaches the real platform): the
 * build read from the script as the platform publishes it, and every hostile answer refused within bounds.
 */
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  lookupSandboxClientVersion,
  lookupWebClientVersion,
  versionOfServiceWorker,
} from '../../../../src/platform/baileys/client-version-lookup.js'
import { onLoopback, type OnLoopback } from '../../../support/loopback-server.js'

/** The shape of the web client's service worker: its data as a JSON string inside the script (quotes escaped). */
const SERVICE_WORKER =
  '/*FB_PKG_DELIM*/\nself.__swData=JSON.parse(/*BTDS*/"{\\"dynamic_data\\":{\\"SiteData\\":{\\"server_revision\\":' +
  '1031234567,\\"client_revision\\":1031234568,\\"push_phase\\":\\"C3\\"}}}");\nimportScripts("/app.js");\n'

const BOUNDS = { timeoutMs: 500, maxBytes: 4096 }

let served: OnLoopback<http.Server>
let base: string
/** Headers of the last request for the script, to check the lookup asks as a browser does. */
let askedWith: http.IncomingHttpHeaders = {}

beforeAll(async () => {
  served = await onLoopback(
    http.createServer((req, res) => {
      switch (req.url) {
        case '/sw.js':
          askedWith = req.headers
          res.writeHead(200, { 'content-type': 'application/javascript' }).end(SERVICE_WORKER)
          return
        case '/none.js':
          res.writeHead(200).end('self.addEventListener("fetch", () => {})')
          return
        case '/huge.js': // no content-length: the cap must hold while reading
          res.writeHead(200, { 'content-type': 'application/javascript' })
          res.write('x'.repeat(3000))
          res.end(`"client_revision":1${'x'.repeat(3000)}`)
          return
        case '/declared-huge.js':
          res.writeHead(200, { 'content-length': String(10_000_000) }).write('"client_revision":1')
          return // never ends: the declared size alone refuses it
        case '/slow.js':
          res.writeHead(200).write('"client_revision":') // and nothing more, ever
          return
        case '/gone.js':
          res.writeHead(503).end('"client_revision":1031234568')
          return
        case '/trust':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"wsUrl":"x","clientVersion":"2.3000.1099"}')
          return
        case '/old/trust':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"wsUrl":"x"}')
          return
        case '/bad/trust':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"clientVersion":"2.3000.1; rm -rf"}')
          return
        default:
          res.writeHead(404).end()
      }
    }),
  )
  base = served.url
})
afterAll(() => served.close())

describe('the web client version lookup', () => {
  it("reads the build the service worker names as the platform's current version 2.3000.<build>", async () => {
    expect(await lookupWebClientVersion(`${base}/sw.js`, BOUNDS)).toEqual([2, 3000, 1031234568])
    expect(askedWith['user-agent']).toMatch(/Chrome/)
  })

  it('reads the build plain or escaped, and nothing else', () => {
    expect(versionOfServiceWorker('{"client_revision": 42}')).toEqual([2, 3000, 42])
    expect(versionOfServiceWorker('{\\"client_revision\\":43}')).toEqual([2, 3000, 43])
    expect(versionOfServiceWorker('"server_revision":44')).toBeUndefined()
    expect(versionOfServiceWorker('"client_revision":0')).toBeUndefined()
    expect(versionOfServiceWorker('"client_revision":"45"')).toBeUndefined()
    expect(versionOfServiceWorker(`"client_revision":${'9'.repeat(11)}`)).toBeUndefined() // no 11-digit builds
  })

  it('fails, saying why, on a script that names no build, an error status, or no answer', async () => {
    await expect(lookupWebClientVersion(`${base}/none.js`, BOUNDS)).rejects.toThrow('names no client revision')
    await expect(lookupWebClientVersion(`${base}/gone.js`, BOUNDS)).rejects.toThrow('answered 503')
    await expect(lookupWebClientVersion(`${base}/slow.js`, BOUNDS)).rejects.toThrow(/timeout/i)
  })

  it('stops reading at the size cap, declared or not', async () => {
    await expect(lookupWebClientVersion(`${base}/huge.js`, BOUNDS)).rejects.toThrow('more than 4096 bytes')
    await expect(lookupWebClientVersion(`${base}/declared-huge.js`, BOUNDS)).rejects.toThrow('more than 4096 bytes')
  })
})

describe("the sandbox's version lookup", () => {
  it('reads clientVersion from its /trust', async () => {
    expect(await lookupSandboxClientVersion(`${base}/`, BOUNDS)).toEqual([2, 3000, 1099])
  })

  it('refuses a /trust without a version, or with anything but a.b.c', async () => {
    await expect(lookupSandboxClientVersion(`${base}/old`, BOUNDS)).rejects.toThrow('names no client version')
    await expect(lookupSandboxClientVersion(`${base}/bad`, BOUNDS)).rejects.toThrow('names no client version')
    await expect(lookupSandboxClientVersion(`${base}/nothing`, BOUNDS)).rejects.toThrow('answered 404')
  })
})
