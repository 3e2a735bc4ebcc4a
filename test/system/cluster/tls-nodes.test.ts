/**
 * @module test/system/cluster/tls-nodes
 * Two nodes whose traffic runs over TLS (docs/cluster.md): each serves https (TLS_CERT_FILE / TLS_KEY_FILE, a
 * certificate for 127.0.0.1 from a test CA), advertises an https:// address, trusts only that CA for the other
 * (CLUSTER_CA_FILE) and forwards to https nodes only (CLUSTER_REQUIRE_TLS). A session paired through one node is
 * read and sends through the other: every forwarded request crossed over TLS. The pairing is watched with a waiting
 * GET /session through the node that does not run the session: it waits on the owner and answers the scan.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { makeTlsMaterial } from '../../../src/sandbox/certs.js'
import { decodeQrPng } from '../../../src/demo/qr-decode.js'
import { freePort, startGateway, type GatewayProcess } from '../../support/processes.js'
import { describeWithRedis, startRedisServer, type RedisServer } from '../../support/redis-server.js'
import { CLUSTER_TEST_ENV } from '../../support/cluster.js'
import { inbox, sandboxCall, startWorld } from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

const PHONE = '15550500001'
const CONTACT = '15550500002'

describeWithRedis('cluster nodes over TLS', () => {
  let redis: RedisServer
  let world: Awaited<ReturnType<typeof startWorld>>
  let dir: string
  let ca: string
  const nodes: GatewayProcess[] = []

  /** A JSON request over https, trusting the test CA only. */
  const call = (
    node: GatewayProcess,
    method: string,
    route: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ) =>
    new Promise<{ status: number; body: any; etag: string | undefined }>((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body)
      const req = https.request(
        `${node.url}${route}`,
        { method, ca, headers: { ...headers, ...(text ? { 'content-type': 'application/json' } : {}) } },
        res => {
          let data = ''
          res.on('data', d => {
            data += d
          })
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: data === '' ? undefined : res.headers['content-type']?.includes('json') ? JSON.parse(data) : data,
              etag: res.headers.etag,
            }),
          )
        },
      )
      req.on('error', reject)
      req.end(text)
    })

  beforeAll(async () => {
    redis = await startRedisServer()
    world = await startWorld()
    dir = mkdtempSync(path.join(os.tmpdir(), 'tls-nodes-'))
    const tls = await makeTlsMaterial()
    ca = tls.caCert
    const files = { cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem'), ca: path.join(dir, 'ca.pem') }
    writeFileSync(files.cert, tls.cert)
    writeFileSync(files.key, tls.key)
    writeFileSync(files.ca, tls.caCert)
    const shared = {
      ...CLUSTER_TEST_ENV,
      SANDBOX_URL: world.sandbox.url,
      DATA_DIR: world.dataDir,
      REDIS_URL: redis.url,
      DATA_KEY: randomBytes(32).toString('base64'),
      CLUSTER_SECRET: randomBytes(32).toString('base64url'),
      TLS_CERT_FILE: files.cert,
      TLS_KEY_FILE: files.key,
      CLUSTER_CA_FILE: files.ca,
      CLUSTER_REQUIRE_TLS: 'true',
    }
    for (const n of [1, 2]) {
      const port = await freePort()
      nodes.push(
        await startGateway({
          ...shared,
          PORT: String(port),
          NODE_ID: `node-${n}`,
          ADVERTISE_URL: `https://127.0.0.1:${port}`,
        }),
      )
    }
    await sandboxCall(world.sandbox.url, 'POST', '/world', {
      accounts: [
        { phone: PHONE, name: 'Tenant' },
        { phone: CONTACT, name: 'Contact' },
      ],
    })
  }, 120_000)

  afterAll(async () => {
    for (const node of nodes) await node.stop('SIGKILL')
    await world?.cleanup()
    await redis?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('pairs through one node and serves the session through the other, forwarding over TLS', async () => {
    const [one, two] = nodes as [GatewayProcess, GatewayProcess]
    // each node has seen the other's heartbeat (its gauge of live nodes counts both)
    await waitFor('each node seeing the other', async () => {
      const gauges = await Promise.all(nodes.map(async node => (await call(node, 'GET', '/metrics')).body as string))
      return gauges.every(text => /^gateway_cluster_nodes_live(\{[^}]*\})? 2$/m.test(text))
    })
    const created = await call(one, 'POST', '/session')
    expect(created.status).toBe(200)
    const headers = { id: created.body.id, 'session-id': created.body.sessionId }
    // whichever node runs it, one of the two reads it through the other
    await waitFor(
      'a QR through node-2',
      async () => (await call(two, 'GET', '/session', headers)).body.qrcode || undefined,
    )
    const owner = String(await waitFor('a lease', () => fetchOwner(created.body.id)))
    const [runs, other] = owner === 'node-1' ? [one, two] : [two, one]
    // the same state has the same ETag on both nodes: a client may ask either (read until both show one QR: the QR
    // may turn between two reads)
    const [shown, direct] = await waitFor('one QR read through both nodes', async () => {
      const [through, at] = [
        await call(other, 'GET', '/session', headers),
        await call(runs, 'GET', '/session', headers),
      ]
      return through.body.qrcode === at.body.qrcode && [through, at]
    })
    const held = shown.etag!
    expect(held).toMatch(/^"[\w-]{22}"$/)
    expect(direct.etag).toBe(held)
    // unchanged: 304 at once without wait, through the node that does not run it
    expect(await call(other, 'GET', '/session', { ...headers, 'if-none-match': held })).toMatchObject({
      status: 304,
      etag: held,
    })
    // a view link made through one node shows the QR through either: the token names its session, signed
    const link = await call(other, 'POST', '/session/view-link', headers)
    expect(link.status).toBe(200)
    const token = decodeURIComponent(new URL(link.body.url).hash.slice('#view='.length))
    expect(token.split('.')).toHaveLength(3)
    const viewToken = { 'view-token': token }
    for (const node of [other, runs]) {
      const qr = await call(node, 'GET', '/session/qr', viewToken)
      expect(qr.status).toBe(200)
      expect(qr.body.qrcode).toMatch(/^iVBORw0KGgo/)
    }
    const forged = `${Buffer.from('someone-else').toString('base64url')}.${token.split('.').slice(1).join('.')}`
    expect((await call(other, 'GET', '/session/qr', { 'view-token': forged })).status).toBe(404)
    // a waiting GET through that node is answered by the change the scan makes on the owner
    const waiting = call(other, 'GET', '/session?wait=30', { ...headers, 'if-none-match': held })
    await new Promise(r => setTimeout(r, 300)) // it waits: nothing changed yet
    const scan = await sandboxCall(world.sandbox.url, 'POST', '/scan', {
      qr: decodeQrPng((await call(runs, 'GET', '/session', headers)).body.qrcode),
      phone: PHONE,
    })
    expect(scan.status).toBe(200)
    const changed = await waiting
    expect(changed.status).toBe(200)
    expect(changed.etag).not.toBe(held)
    expect(changed.body.id).toBe(created.body.id)
    for (const node of [one, two]) {
      await waitFor(
        'connected',
        async () => (await call(node, 'GET', '/session', headers)).body.isConnected || undefined,
      )
    }
    const sent = await call(other, 'POST', '/message', headers, { phone: CONTACT, type: 'text', text: 'over tls' })
    expect(sent).toMatchObject({ status: 200, body: { messageId: expect.any(String) } })
    await waitFor(
      'the message at the contact',
      async () => (await inbox(world.sandbox.url, CONTACT)).some(m => m.text === 'over tls') || undefined,
    )
    const metrics = await new Promise<string>((resolve, reject) =>
      https
        .get(`${other.url}/metrics`, { ca }, res => {
          let text = ''
          res.on('data', d => {
            text += d
          })
          res.on('end', () => resolve(text))
        })
        .on('error', reject),
    )
    expect(metrics).toMatch(/gateway_cluster_forwarded_requests_total\{result="ok"\} [1-9]/)
  }, 90_000)

  async function fetchOwner(id: string): Promise<string | undefined> {
    const { connectRedis, text } = await import('../../../src/cluster/store/connection.js')
    const conn = await connectRedis(redis.url)
    try {
      return text(await conn.command(['GET', `gw:{${id}}:lease`]))?.split('|')[0]
    } finally {
      await conn.close()
    }
  }
})
