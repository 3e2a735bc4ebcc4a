/**
 * A proxy per session, end to end (docs/api.md: A proxy per session): the real gateway process, the sandbox and the
 * unmodified Baileys client, one session behind a real SOCKS5 proxy and one behind a real HTTP CONNECT proxy
 * (test/support/proxies), each proxy leaving from its own loopback address (127.0.0.2, 127.0.0.3), so the sandbox's
 * ledger of where each login, WebSocket and media request came from proves the traffic went through the proxy and
 * not around it. Then: a proxy dying mid-session (reconnects, GET /session saying why, recovery), a change and a
 * removal taking effect on the next connection, the credentials nowhere in answers, logs or the data folder, and the
 * operator's policy (private addresses, allow-list) on a gateway that keeps its defaults.
 */
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Gateway,
  inbox,
  launchGateway,
  pair,
  reply,
  sandboxCall,
  type Session,
  startWorld,
  withSession,
} from '../../support/system/harness.js'
import { onLoopback, type OnLoopback } from '../../support/loopback-server.js'
import { sandboxDevices } from '../../support/system/sandbox-devices.js'
import { HttpProxy } from '../../support/proxies/http-proxy.js'
import { Socks5Proxy } from '../../support/proxies/socks5-proxy.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001' // behind the SOCKS5 proxy
const CAROL = '15550000003' // behind the HTTP proxy
const BOB = '15550000002'
const PASSWORD = `pw${randomBytes(9).toString('hex')}`
/** A proxy service's API token, given as the proxy URL's username alone. */
const LONE_TOKEN = `tok${randomBytes(9).toString('hex')}`
const SOCKS_FROM = '127.0.0.2'
const HTTP_FROM = '127.0.0.3'
const ENV = {
  SESSION_PROXY_ALLOW_PRIVATE: 'true', // the proxies are on loopback
  SESSION_PROXY_MEDIA_DOWNLOADS: 'true',
  SESSION_PROXY_CONNECT_TIMEOUT_MS: '3000',
  RECONNECT_MIN_MS: '200',
  RECONNECT_MAX_MS: '1000',
  DATA_KEY: randomBytes(32).toString('base64'),
  LOG_LEVEL: 'debug',
}

const socks = new Socks5Proxy({ username: 'alice', password: PASSWORD, localAddress: SOCKS_FROM })
const httpProxy = new HttpProxy({ username: 'carol', password: PASSWORD, localAddress: HTTP_FROM })
let world: Awaited<ReturnType<typeof startWorld>>
let gw: Gateway
/** Everything every gateway process of this file wrote, and every answer it gave. */
let log = ''
const answers: unknown[] = []
let media: OnLoopback<Server> | undefined
const mediaFrom: string[] = []
let photoUrl = ''
let alice: Session
let carol: Session

async function startGateway(env: Record<string, string> = ENV): Promise<Gateway> {
  const started = await launchGateway(world.sandbox.url, world.dataDir, env)
  log += started.proc.output()
  const keep = (d: Buffer) => {
    log += d.toString()
  }
  started.proc.child.stdout!.on('data', keep)
  started.proc.child.stderr!.on('data', keep)
  return started
}

const stats = async () => (await sandboxCall(world.sandbox.url, 'GET', '/stats')).body
const loginsFrom = async (phone: string) => (await sandboxDevices(world.sandbox.url, phone))[0]?.loginsFrom ?? {}
const connected = async (s: Session) => (await gw.session(s)).body.isConnected === true

beforeAll(async () => {
  world = await startWorld()
  await Promise.all([socks.listen(), httpProxy.listen()])
  const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 9, b: 9 } } })
    .jpeg()
    .toBuffer()
  media = await onLoopback(
    createServer((req, res) => {
      mediaFrom.push(req.socket.remoteAddress ?? '')
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length }).end(photo)
    }),
  )
  photoUrl = `${media.url}/photo.jpg`
  gw = await startGateway()
}, 120_000)

afterAll(async () => {
  await gw?.proc.stop()
  await Promise.all([socks.close(), httpProxy.close()])
  await media?.close()
  await world?.cleanup()
})

describe('sessions behind a proxy', () => {
  it('pair, send text and media through a SOCKS5 and an HTTP CONNECT proxy: the platform saw only the proxies', async () => {
    const created = await Promise.all(
      [socks.url(), httpProxy.url()].map(proxy => reply(gw.api.POST('/session', { body: { proxy } }))),
    )
    answers.push(...created.map(r => r.body))
    expect(created.map(r => r.status)).toEqual([200, 200])
    ;[alice, carol] = created.map(r => r.body as Session) as [Session, Session]
    const shown = await reply(gw.api.GET('/session/proxy', withSession(alice)))
    answers.push(shown.body)
    expect(shown.body).toEqual({ proxy: `socks5://alice:***@127.0.0.1:${socks.port}`, source: 'session' })

    await pair(gw, world.sandbox.url, alice, ALICE)
    await pair(gw, world.sandbox.url, carol, CAROL)
    const text = await gw.call('POST', '/message', alice, { phone: BOB, type: 'text', text: 'hello through socks' })
    const image = await gw.call('POST', '/message', carol, {
      phone: BOB,
      type: 'image',
      text: 'photo through the http proxy',
      image: { url: photoUrl, mimetype: 'image/jpeg' },
    })
    answers.push(text.body, image.body)
    expect([text.status, image.status], JSON.stringify([text.body, image.body])).toEqual([200, 200])
    const got = await waitFor('Bob has both', async () => {
      const messages = await inbox(world.sandbox.url, BOB)
      return messages.length >= 2 ? messages : undefined
    })
    expect(JSON.stringify(got)).toContain('hello through socks')
    expect(JSON.stringify(got)).toContain('photo through the http proxy')

    // where the platform saw each session come from: its proxy, never the gateway's own address
    expect(Object.keys(await loginsFrom(ALICE))).toEqual([SOCKS_FROM])
    expect(Object.keys(await loginsFrom(CAROL))).toEqual([HTTP_FROM])
    const wire = await stats()
    expect(Object.keys(wire.connectionsByAddress).sort()).toEqual([SOCKS_FROM, HTTP_FROM])
    expect(wire.uploadsByAddress).toEqual({ [HTTP_FROM]: 1 }) // the image's upload
    // and the tenant's media URL was fetched through the proxy too (SESSION_PROXY_MEDIA_DOWNLOADS)
    expect(mediaFrom).toEqual([HTTP_FROM])
    expect(socks.authFailures + httpProxy.authFailures).toBe(0)
  }, 240_000)

  it('a proxy that dies mid-session gives reconnects, and the session recovers when it comes back', async () => {
    const before = (await loginsFrom(ALICE))[SOCKS_FROM] ?? 0
    await socks.close()
    await waitFor('Alice shown disconnected', async () => !(await connected(alice)))
    // it keeps trying, each attempt a clear error naming the proxy without its password
    await waitFor('the failed attempts in the log', () =>
      log.includes(`proxy socks5://alice:***@127.0.0.1:${socks.port}`),
    )
    // and GET /session says why, naming the proxy without its password
    const why = await waitFor('the reason in GET /session', async () => {
      const body = (await gw.session(alice)).body
      return body.reason === 'proxy-refused' ? body : undefined
    })
    answers.push(why)
    expect(why.reasonMessage).toContain(`the session's proxy failed: proxy socks5://alice:***@127.0.0.1:${socks.port}`)
    const text = await gw.call('POST', '/message', alice, { phone: BOB, type: 'text', text: 'while the proxy is down' })
    answers.push(text.body)
    expect(text).toEqual({ status: 500, body: { statusCode: 500, message: 'session not connected' } })
    expect(await connected(carol)).toBe(true) // the neighbour behind the other proxy is untouched

    await socks.listen()
    await waitFor('Alice connected again', () => connected(alice), 30_000)
    expect((await gw.session(alice)).body.reason).toBeUndefined() // connected: nothing to explain
    expect((await loginsFrom(ALICE))[SOCKS_FROM]).toBeGreaterThan(before)
    expect(Object.keys(await loginsFrom(ALICE))).toEqual([SOCKS_FROM])
    const again = await gw.call('POST', '/message', alice, { phone: BOB, type: 'text', text: 'back through socks' })
    expect(again.status).toBe(200)
  }, 120_000)

  it('a changed proxy takes the next connection; a removed one lets it go direct; both survive a restart', async () => {
    const logins = (await sandboxDevices(world.sandbox.url, ALICE))[0]!.logins
    const changed = await reply(gw.api.PUT('/session/proxy', withSession(alice, { body: { proxy: httpProxy.url() } })))
    answers.push(changed.body)
    expect(changed.body).toEqual({
      proxy: `http://carol:***@127.0.0.1:${httpProxy.port}`,
      source: 'session',
      takesEffect: 'next-connection',
    })
    // the connection open now is kept...
    expect(await connected(alice)).toBe(true)
    expect((await sandboxDevices(world.sandbox.url, ALICE))[0]!.logins).toBe(logins)
    // ...and the next one, once it drops, goes through the new proxy
    await socks.close()
    await waitFor('Alice reconnected through the HTTP proxy', async () =>
      (await connected(alice)) && (await loginsFrom(ALICE))[HTTP_FROM] ? true : undefined,
    )

    const removed = await reply(gw.api.DELETE('/session/proxy', withSession(alice)))
    answers.push(removed.body)
    expect(removed.body).toEqual({ proxy: null, source: 'none', takesEffect: 'next-connection' })
    await gw.proc.stop()
    gw = await startGateway()
    await waitFor('both connected after the restart', async () => (await connected(alice)) && connected(carol))
    expect((await loginsFrom(ALICE))['127.0.0.1']).toBeGreaterThanOrEqual(1) // no proxy any more: direct
    expect(Object.keys(await loginsFrom(CAROL))).toEqual([HTTP_FROM]) // its stored proxy came back with it
  }, 120_000)

  it("a proxy service's token given as the username alone is masked whole, in the answer and the log", async () => {
    const created = await reply(
      gw.api.POST('/session', { body: { proxy: `socks5://${LONE_TOKEN}@127.0.0.1:${socks.port}` } }),
    )
    expect(created.status).toBe(200)
    const s = created.body as Session
    const shown = await reply(gw.api.GET('/session/proxy', withSession(s)))
    answers.push(created.body, shown.body)
    expect(shown.body).toEqual({ proxy: `socks5://***@127.0.0.1:${socks.port}`, source: 'session' })
    // its connections fail (the proxy is down since the last test), each failure logged naming the proxy, masked
    await waitFor('a failed attempt in the log', () => log.includes(`proxy socks5://***@127.0.0.1:${socks.port}`))
    expect((await gw.call('DELETE', '/session', s)).status).toBe(200)
  }, 60_000)

  it('the credentials are in no answer, no log line and no stored byte (sealed with DATA_KEY)', async () => {
    expect(log).toContain('gateway listening') // the capture works
    expect(log).toContain(':***@127.0.0.1:') // the proxy is named in the log, masked
    expect(log).not.toContain(PASSWORD)
    expect(log).not.toContain(LONE_TOKEN)
    expect(JSON.stringify([...answers, ...gw.responses.map(r => r.body)])).not.toContain(PASSWORD)
    expect(JSON.stringify([...answers, ...gw.responses.map(r => r.body)])).not.toContain(LONE_TOKEN)
    const files = readdirSync(world.dataDir, { recursive: true })
      .map(name => path.join(world.dataDir, String(name)))
      .filter(file => statSync(file).isFile())
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) expect(readFileSync(file).includes(PASSWORD), file).toBe(false)
  })
})

describe("a gateway that keeps the proxy policy's defaults", () => {
  let strict: Gateway
  beforeAll(async () => {
    strict = await startGateway({
      SESSION_PROXY_ALLOWED_HOSTS: 'localhost,proxy.example',
      DATA_DIR: `${world.dataDir}-strict`,
    })
  }, 60_000)
  afterAll(async () => {
    await strict?.proc.stop()
  })

  const create = (body?: object) =>
    body === undefined ? reply(strict.api.POST('/session')) : reply(strict.api.POST('/session', { body }))

  it('refuses a proxy off the allow-list, and one on a private address, with the reason', async () => {
    expect(await create({ proxy: socks.url() })).toEqual({
      status: 400,
      body: { statusCode: 400, message: "proxy host is not on this gateway's list of allowed proxy hosts" },
    })
    expect(await create({ proxy: `socks5://alice:${PASSWORD}@localhost:${socks.port}` })).toEqual({
      status: 400,
      body: { statusCode: 400, message: 'proxy leads to a private or local address' },
    })
    expect(await create({ proxy: 'ftp://proxy.example' })).toEqual({
      status: 400,
      body: { statusCode: 400, message: 'proxy must be a socks5, socks5h, http or https URL with a host and no path' },
    })
    const session = (await create()).body as Session // no body: the spec's POST /session, unchanged
    const put = await reply(
      strict.api.PUT('/session/proxy', withSession(session, { body: { proxy: `http://localhost:${httpProxy.port}` } })),
    )
    expect(put).toEqual({
      status: 400,
      body: { statusCode: 400, message: 'proxy leads to a private or local address' },
    })
    expect(await reply(strict.api.GET('/session/proxy', withSession(session)))).toEqual({
      status: 200,
      body: { proxy: null, source: 'none' },
    })
    expect(strict.proc.output()).not.toContain(PASSWORD)
  })
})
