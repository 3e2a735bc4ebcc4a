/**
 * @module test/system/security/log-hygiene
 * The gateway's own log, at LOG_LEVEL=trace (which includes debug), holds none of the secrets a full session
 * handles: the `sessionId`, the QR string, a pairing code, the account's private keys (read back from its store), the
 * text of messages sent and received, or the query token of a media URL. The whole stdout + stderr of the gateway
 * process is captured from start to stop (its last lines are written while shutting down) and searched.
 */
import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeQrPng } from '../../../src/demo/qr-decode.js'
import { openLmdbStore } from '../../../src/storage/lmdb-store.js'
import {
  type Gateway,
  inbox,
  launchGateway,
  mediaServer,
  sandboxCall,
  startWorld,
  type Session,
} from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001' // the default world: Alice has Bob in her address book (status needs a contact)
const BOB = '15550000002'
const MARKER = `log-marker-${randomBytes(6).toString('hex')}`
const URL_TOKEN = `tok${randomBytes(9).toString('hex')}`

let world: Awaited<ReturnType<typeof startWorld>>
let media: Awaited<ReturnType<typeof mediaServer>>
let gw: Gateway
let log = ''
let session: Session
let qr = ''
let pairingCode = ''

beforeAll(async () => {
  world = await startWorld()
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 9, g: 99, b: 199 } } })
    .jpeg()
    .toBuffer()
  media = await mediaServer({ [`/photo.jpg?token=${URL_TOKEN}`]: { body: photo, type: 'image/jpeg' } })
  gw = await launchGateway(world.sandbox.url, world.dataDir, { LOG_LEVEL: 'trace' })
  // everything written so far (the start-up lines) plus everything after
  log = gw.proc.output()
  gw.proc.child.stdout!.on('data', (d: Buffer) => {
    log += d.toString()
  })
  gw.proc.child.stderr!.on('data', (d: Buffer) => {
    log += d.toString()
  })
}, 180_000)

afterAll(async () => {
  await gw?.proc.stop()
  await media?.close()
  await world?.cleanup()
})

describe('logs at trace level', () => {
  it('a full session (pair, send, receive, read) leaves no secret in the log', async () => {
    session = await gw.createSession()
    const png = await waitFor('a QR', async () => (await gw.session(session)).body.qrcode || undefined, 60_000)
    // a code asked for first (it stays pending: the QR still links)
    const code = await gw.call('POST', '/session/pairing-code', session, { phone: ALICE })
    expect(code.status).toBe(200)
    pairingCode = code.body.code
    qr = decodeQrPng(png)
    expect((await sandboxCall(world.sandbox.url, 'POST', '/scan', { qr, phone: ALICE })).status).toBe(200)
    await waitFor('isConnected', async () => (await gw.session(session)).body.isConnected || undefined, 90_000)

    const text = await gw.call('POST', '/message', session, { phone: BOB, type: 'text', text: `${MARKER} text` })
    expect(text.status).toBe(200)
    const image = await gw.call('POST', '/message', session, {
      phone: BOB,
      type: 'image',
      text: `${MARKER} caption`,
      image: { url: `${media.base}/photo.jpg?token=${URL_TOKEN}`, mimetype: 'image/jpeg' },
    })
    expect(image.status).toBe(200)
    const missing = await gw.call('POST', '/message', session, {
      phone: BOB,
      type: 'image',
      image: { url: `${media.base}/gone.jpg?token=${URL_TOKEN}`, mimetype: 'image/jpeg' },
    })
    expect(missing.status).toBe(500) // a failed download is logged too: still without its URL
    const status = await gw.call('POST', '/status', session, { type: 'text', text: `${MARKER} status` })
    expect(status, JSON.stringify(status.body)).toMatchObject({ status: 200 })
    await waitFor(
      'Bob got both messages',
      async () => (await inbox(world.sandbox.url, BOB)).length >= 2 || undefined,
      60_000,
    )
    // Bob writes back: the gateway decrypts it (incoming content must not be logged either)
    const reply = await sandboxCall(world.sandbox.url, 'POST', `/accounts/${BOB}/send`, {
      to: ALICE,
      text: `${MARKER} reply`,
    })
    expect(reply.status).toBe(200)
    expect((await gw.session(session)).status).toBe(200)
    expect((await gw.call('GET', '/session', { id: session.id, sessionId: 'wrong-secret' })).status).toBe(404)

    // the account's private keys, as the gateway stored them (lmdb allows a second reader process)
    const store = openLmdbStore(world.dataDir)
    const creds = (await store.auth(session.id).readCreds())!
    await store.close()
    expect(creds.me?.id).toBeTruthy()
    // give the reply time to be decrypted and logged, then stop: shutdown lines are part of the log
    await new Promise(resolve => setTimeout(resolve, 3_000))
    await gw.proc.stop()

    expect(log).toContain('gateway listening') // the capture works
    expect(log).toContain('"level":20') // debug lines were written (the gateway writes none at trace itself)
    expect(log).toContain(session.id) // the public id may be logged
    const secrets: Record<string, string> = {
      sessionId: session.sessionId,
      qr,
      // `https://wa.me/settings/linked_devices#<ref>,<noise pub>,<identity pub>,<adv secret>`
      'QR ref': qr.slice(qr.indexOf('#') + 1).split(',')[0]!,
      marker: MARKER,
      'media URL token': URL_TOKEN,
      'pairing code': pairingCode,
      'pairing code undashed': pairingCode.replace('-', ''),
    }
    // stanza dumps print binary content as hex: look for every text secret that way too
    for (const [name, value] of Object.entries(secrets)) secrets[`${name} hex`] = Buffer.from(value).toString('hex')
    const keys = {
      noiseKey: creds.noiseKey.private,
      identityKey: creds.signedIdentityKey.private,
      signedPreKey: creds.signedPreKey.keyPair.private,
      advSecretKey: Buffer.from(creds.advSecretKey, 'base64'),
    }
    for (const [name, key] of Object.entries(keys)) {
      const bytes = Buffer.from(key)
      secrets[`${name} base64`] = bytes.toString('base64')
      secrets[`${name} hex`] = bytes.toString('hex')
      secrets[`${name} bytes`] = [...bytes].join(',')
    }
    const found = Object.entries(secrets)
      .filter(([, value]) => log.includes(value))
      .map(([name]) => name)
    expect(found).toEqual([])
  }, 240_000) // pairing and five requests at trace level, on two shared cores
})
