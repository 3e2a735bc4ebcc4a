/**
 * @module test/system/security/hardened-gateway
 * The real gateway process with every protection on (CREATE_SESSION_TOKEN, DATA_KEY, the SSRF guard), against the
 * sandbox: session creation needs the token; a paired session sends; media URLs on private addresses are a 400
 * without a request reaching them; the lmdb file holds no private key in the clear, and not even the sessionId's
 * hash (the registry is sealed); the session survives a restart with the same key; a wrong or missing key stops the
 * start with a one-line reason; DELETE /session destroys the session's key, so what lmdb left of its rows cannot
 * be opened; the files are 0600.
 */
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLmdbStore } from '../../../src/storage/lmdb-store.js'
import { onLoopback, type OnLoopback } from '../../support/loopback-server.js'
import { type Gateway, launchGateway, pair, startWorld, type Session } from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002'
const TOKEN = randomBytes(24).toString('base64url')
const DATA_KEY = randomBytes(32).toString('base64')
/** Each gateway start compiles and opens everything again; generous on two shared cores. */
const SLOW = 240_000
const HARDENED = { CREATE_SESSION_TOKEN: TOKEN, DATA_KEY, MEDIA_ALLOW_PRIVATE_URLS: 'false' }

let world: Awaited<ReturnType<typeof startWorld>>
let gw: Gateway | undefined
let internal: OnLoopback<Server>
let internalHits = 0
let internalBase = ''

beforeAll(async () => {
  world = await startWorld()
  internal = await onLoopback(
    createServer((_req, res) => {
      internalHits++
      res.end('internal')
    }),
  )
  internalBase = `127.0.0.1:${internal.port}`
})

afterAll(async () => {
  await gw?.proc.stop()
  await internal.close()
  await world?.cleanup()
})

const createSession = (g: Gateway, authorization?: string) =>
  fetch(`${g.url}/session`, {
    method: 'POST',
    headers: authorization ? { authorization } : {},
  }).then(async res => ({ status: res.status, body: (await res.json()) as any }))

/** Starts the gateway and expects it to refuse: returns what it printed. */
async function failedStart(env: Record<string, string>): Promise<string> {
  const err = await launchGateway(world.sandbox.url, world.dataDir, env).then(
    g => {
      gw = g
      return undefined
    },
    e => e,
  )
  expect(err).toBeInstanceOf(Error)
  return (err as Error).message
}

describe('a gateway with every protection on', () => {
  let session: Session

  it(
    'POST /session needs the bearer token',
    async () => {
      gw = await launchGateway(world.sandbox.url, world.dataDir, HARDENED)
      expect(await createSession(gw)).toEqual({
        status: 401,
        body: { statusCode: 401, message: 'missing or wrong bearer token' },
      })
      expect((await createSession(gw, 'Bearer not-the-token-at-all')).status).toBe(401)
      const created = await createSession(gw, `Bearer ${TOKEN}`)
      expect(created.status).toBe(200)
      session = created.body
      await pair(gw, world.sandbox.url, session, ALICE)
    },
    SLOW,
  )

  it('sends text, and refuses media URLs on private addresses with a 400 before any request', async () => {
    expect((await gw!.call('POST', '/message', session, { phone: BOB, type: 'text', text: 'hi' })).status).toBe(200)
    const refusals = [
      [
        '/message',
        { phone: BOB, type: 'image', image: { url: `http://${internalBase}/a.jpg`, mimetype: 'image/jpeg' } },
        'image.url',
      ],
      [
        '/message',
        {
          phone: BOB,
          type: 'document',
          document: {
            url: `http://[::ffff:127.0.0.1]:${internalBase.split(':')[1]}/a`,
            name: 'a',
            size: 1,
            mimetype: 'application/pdf',
          },
        },
        'document.url',
      ],
      [
        '/message',
        {
          phone: BOB,
          type: 'audio',
          audio: { url: 'http://169.254.169.254/latest/meta-data/', mimetype: 'audio/mpeg', duration: 1 },
        },
        'audio.url',
      ],
      [
        '/status',
        {
          type: 'image',
          image: { url: `http://localhost:${internalBase.split(':')[1]}/a.jpg`, mimetype: 'image/jpeg' },
        },
        'image.url',
      ],
    ] as const
    for (const [route, body, field] of refusals) {
      const res = await gw!.call('POST', route, session, body)
      expect(res, JSON.stringify(body)).toEqual({
        status: 400,
        body: { statusCode: 400, message: `${field} leads to a private or local address` },
      })
    }
    expect(internalHits).toBe(0)
  })

  it('the lmdb file holds the credentials encrypted, and the sessionId not even as its SHA-256', async () => {
    const store = openLmdbStore(world.dataDir, { dataKey: DATA_KEY })
    const creds = (await store.auth(session.id).readCreds())!
    await store.close()
    const raw = fs.readFileSync(path.join(world.dataDir, 'gateway.mdb'))
    for (const key of [creds.noiseKey.private, creds.signedIdentityKey.private, creds.signedPreKey.keyPair.private]) {
      expect(raw.includes(Buffer.from(key))).toBe(false)
      expect(raw.includes(Buffer.from(Buffer.from(key).toString('base64')))).toBe(false)
    }
    expect(raw.includes(Buffer.from(creds.advSecretKey))).toBe(false)
    expect(raw.includes(Buffer.from(session.sessionId))).toBe(false)
    // the registry row is sealed too (bound to its id: a swapped hash would be refused)
    expect(raw.includes(Buffer.from(createHash('sha256').update(session.sessionId).digest('hex')))).toBe(false)
  })

  it(
    'the paired session survives a restart with the same DATA_KEY',
    async () => {
      await gw!.proc.stop()
      gw = await launchGateway(world.sandbox.url, world.dataDir, HARDENED)
      await waitFor('reconnected', async () => (await gw!.session(session)).body.isConnected || undefined, 90_000)
      expect(
        (await gw.call('POST', '/message', session, { phone: BOB, type: 'text', text: 'after restart' })).status,
      ).toBe(200)
      await gw.proc.stop()
      gw = undefined
    },
    SLOW,
  )

  it(
    'a wrong or missing DATA_KEY stops the start with a one-line reason, and the data stays readable',
    async () => {
      expect(await failedStart({ ...HARDENED, DATA_KEY: randomBytes(32).toString('hex') })).toContain(
        'gateway cannot start: DATA_KEY does not match the key this DATA_DIR was written with',
      )
      expect(await failedStart({ ...HARDENED, DATA_KEY: '' })).toContain(
        'gateway cannot start: this DATA_DIR was written with DATA_KEY; start the gateway with the same DATA_KEY',
      )
      const badFormat = await failedStart({ ...HARDENED, DATA_KEY: 'not-a-key' })
      expect(badFormat).toContain(
        'invalid setting DATA_KEY: must be 32 bytes written as 64 hex characters or as base64 (44 characters), got a value of 9 characters',
      )
      expect(badFormat).not.toContain('not-a-key') // a secret is never echoed, not even a malformed one
      const store = openLmdbStore(world.dataDir, { dataKey: DATA_KEY })
      expect((await store.auth(session.id).readCreds())?.me?.id).toBeTruthy()
      await store.close()
    },
    SLOW,
  )

  it(
    'DELETE /session destroys the session key: nothing left in DATA_DIR opens its rows',
    async () => {
      const keyFile = path.join(world.dataDir, 'session-keys', Buffer.from(session.id).toString('hex'))
      const wrapped = fs.readFileSync(keyFile)
      gw = await launchGateway(world.sandbox.url, world.dataDir, HARDENED)
      await waitFor('reconnected', async () => (await gw!.session(session)).body.isConnected || undefined, 90_000)
      expect((await gw.call('DELETE', '/session', session)).status).toBe(200)
      await gw.proc.stop()
      gw = undefined
      expect(fs.existsSync(keyFile)).toBe(false)
      const files = fs
        .readdirSync(world.dataDir, { recursive: true, encoding: 'utf8' })
        .map(name => path.join(world.dataDir, name))
        .filter(file => fs.statSync(file).isFile())
      for (const file of files) {
        expect(fs.readFileSync(file).includes(wrapped), file).toBe(false)
        expect(fs.statSync(file).mode & 0o777, file).toBe(0o600)
      }
      expect(fs.statSync(world.dataDir).mode & 0o777).toBe(0o700)
    },
    SLOW,
  )
})
