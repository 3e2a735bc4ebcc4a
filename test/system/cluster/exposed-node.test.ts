/**
 * @module test/system/cluster/exposed-node
 * Two gateway nodes on one Redis, attacked as a stranger on the network would (SECURITY.md), each attack written from
 * the attacker's side and checked from the victim's:
 *   - a request target in absolute or authority form naming an internal address (here a loopback tripwire) gets
 *     400 on every node and the tripwire sees nothing, whichever session id the request names, with http://,
 *     https:// or odd schemes; the node stays up for every odd target, method, header and abort a fuzzer sends;
 *   - whoever reads all of Redis finds nothing that makes them a node: whatever they put in the peer headers, the
 *     per-client limits hold, and they count across the nodes, not per node;
 *   - a wrong secret is the same 404 on every node, whether the id runs there, on the other node or nowhere, and
 *     costs each exactly one registry read; nothing of it reaches the other node or its forwarding counter;
 *   - 300 connections naming the other node's session with a wrong secret and a stalled body do not slow the real
 *     tenant's requests through the same node;
 *   - whoever writes Redis cannot make a node forward a session's requests to an address of theirs.
 */
import net from 'node:net'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithRedis } from '../../support/redis-server.js'
import { type PairedSession, startCluster, type TestCluster } from '../../support/cluster.js'
import { startTripwire, type Tripwire } from '../../support/tripwire.js'
import { expectWellFormed, exchange, rawRequest } from '../../support/property/raw-http.js'
import { headersOf } from '../../support/system/harness.js'
import { hashEntries } from '../../../src/cluster/store/hash-entries.js'
import { waitFor } from '../../support/wait-for.js'

describeWithRedis('cluster mode exposed to a network', () => {
  let cluster: TestCluster
  let tripwire: Tripwire
  /** A session node-1 runs and one node-2 runs. */
  let onFirst: PairedSession
  let onSecond: PairedSession
  const portOf = (index: number) => Number(new URL(cluster.nodes[index]!.url).port)

  beforeAll(async () => {
    tripwire = await startTripwire()
    cluster = await startCluster(2, { SESSION_CREATE_PER_MINUTE: '6', CLUSTER_MOVE_WAIT_MS: '1500' })
    await cluster.addContacts(['15550300100'])
    // one session on each node: a new one goes to the node with fewer, as the heartbeats tell it
    for (let phone = 15550300000; !onFirst || !onSecond; phone++) {
      await cluster.pairSessions(1, phone)
      await cluster.settled()
      const owners = await Promise.all(cluster.sessions.map(s => cluster.ownerOf(s)))
      onFirst = cluster.sessions[owners.indexOf('node-1')]!
      onSecond = cluster.sessions[owners.indexOf('node-2')]!
      expect(cluster.sessions.length).toBeLessThan(5)
    }
  }, 180_000)

  afterAll(async () => {
    await cluster?.close()
    await tripwire?.close()
  })

  const healthy = async (index: number) => (await fetch(`${cluster.nodes[index]!.url}/healthz`)).status === 200

  it('refuses a target that is not a path on every node, and the address it names receives nothing', async () => {
    const internal = `127.0.0.1:${tripwire.port}`
    const targets = [
      `http://${internal}/session`,
      `https://${internal}/session`,
      `http://${internal}/message`,
      `ftp://${internal}/session`,
      `HTTP://${internal}/group`,
      `//${internal}/session`,
      internal,
      '*',
    ]
    for (const index of [0, 1]) {
      for (const session of [onFirst, onSecond]) {
        for (const path of targets) {
          for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) {
            const what = `${method} ${path} to node-${index + 1}`
            const res = await rawRequest(portOf(index), {
              method,
              path,
              headers: [...Object.entries(headersOf(session)), ['content-type', 'application/json']],
              body: method === 'POST' ? Buffer.from('{"phone":"15550100001","type":"text","text":"x"}') : undefined,
            })
            // `//host/…` is a path (of this node): it names no route here
            expectWellFormed(res, path.startsWith('//') ? [404] : [400], what)
            // node's own parser refuses some of these before the gateway sees them (`GET host:port` is not HTTP)
            if (!path.startsWith('//'))
              expect(['request target must be a path', 'malformed HTTP request'], what).toContain(
                JSON.parse(res.text).message,
              )
          }
        }
      }
      const connect = await exchange(
        portOf(index),
        Buffer.from(`CONNECT ${internal} HTTP/1.1\r\nhost: ${internal}\r\n\r\n`),
        'CONNECT',
      )
      expectWellFormed(connect, [400], 'CONNECT')
      expect(await healthy(index)).toBe(true)
    }
    expect(tripwire.hits, tripwire.seen.join(' | ')).toBe(0)
  })

  it('answers a wrong secret with the same 404 on every node, one registry read each, and nothing crosses', async () => {
    const hgets = async () => {
      const info = String(await cluster.raw.command(['INFO', 'commandstats']))
      return Number(/cmdstat_hget:calls=(\d+)/.exec(info)?.[1] ?? 0)
    }
    const forwarded = async () =>
      (await cluster.metric(0, 'gateway_cluster_forwarded_requests_total')) +
      (await cluster.metric(1, 'gateway_cluster_forwarded_requests_total'))
    // before the fuzzer's test: a forward of its (odd, aborted, stalled) requests may end, and be counted, late
    const before = await forwarded()
    const answers = new Set<string>()
    for (const index of [0, 1]) {
      for (const id of [onFirst.id, onSecond.id, 'AAAAAAAAAAAAAAAAAAAAAAAA']) {
        for (const path of ['/session', '/group', '/session/reset']) {
          const method = path === '/session/reset' ? 'POST' : 'GET'
          const reads = await hgets()
          const res = await rawRequest(portOf(index), {
            method,
            path,
            headers: [
              ['id', id],
              ['session-id', 'wrong'],
            ],
          })
          expect(await hgets(), `${method} ${path} ${id} on node-${index + 1}`).toBe(reads + 1)
          const { date: _date, 'x-request-id': _reqId, ...rest } = res.headers
          answers.add(JSON.stringify({ status: res.status, text: res.text, headers: rest }))
        }
      }
    }
    expect([...answers].map(a => JSON.parse(a).text)).toEqual(['{"statusCode":404,"message":"session not found"}'])
    expect(answers.size).toBe(1)
    expect(await forwarded()).toBe(before)
  })

  it('stays up and answers in the error shape whatever a fuzzer sends toward the other node', async () => {
    const target = fc.oneof(
      fc.constantFrom('/session', '/message', '/group', '/channel/message?channelId=x', '/typing', '/status'),
      fc.string({ minLength: 1, maxLength: 40 }).map(s => `/${encodeURIComponent(s)}`),
      fc.constantFrom(
        `/session?x=${'%'.repeat(3)}`,
        '/session/../../etc',
        '/session#frag',
        `/%2F%2F127.0.0.1:${tripwire.port}/x`,
      ),
    )
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND')
    const extra = fc.array(
      fc.tuple(
        fc.constantFrom(
          'x-gateway-peer',
          'x-gateway-client',
          'host',
          'expect',
          'content-type',
          'transfer-encoding',
          'upgrade',
          'x-forwarded-host',
        ),
        fc.constantFrom(
          'v1 node-2 node-1 0 a b',
          '127.0.0.1',
          `127.0.0.1:${tripwire.port}`,
          '100-continue',
          'text/plain',
          'websocket',
          '',
        ),
      ),
      { maxLength: 3 },
    )
    const secret = fc.constantFrom('right', 'wrong', 'none')
    await fc.assert(
      fc.asyncProperty(target, method, extra, secret, fc.boolean(), async (path, verb, headers, which, body) => {
        // with the right secret, nothing that would delete, reset or send for the tenant (the later tests need it)
        if (which === 'right' && (verb === 'DELETE' || verb === 'POST')) return
        const auth: [string, string][] =
          which === 'none'
            ? []
            : [
                ['id', onSecond.id],
                ['session-id', which === 'right' ? onSecond.sessionId : 'not-the-secret'],
              ]
        const res = await rawRequest(portOf(0), {
          method: verb,
          path,
          headers: [...auth, ...headers.filter(([k]) => k !== 'transfer-encoding' || !body)],
          body: body && verb !== 'GET' && verb !== 'HEAD' ? Buffer.from('{"text":"fuzz"}') : undefined,
        }).catch((err: Error) => ({ status: 0, headers: {}, text: err.message }))
        // a cut connection is an answer too (bytes node's parser refused); a hang or a crash is not
        if (res.status === 0) expect(res.text).not.toMatch(/no response within/)
        else if (verb !== 'HEAD')
          expectWellFormed(res, [200, 400, 401, 404, 408, 413, 415, 417, 429, 431, 500, 503], `${verb} ${path}`)
      }),
      { numRuns: 150 },
    )
    // clients that give up half-way, at every point of a forwarded request
    for (const cut of [10, 60, 120]) {
      const socket = net.connect(portOf(0), '127.0.0.1')
      const head = `POST /message HTTP/1.1\r\nhost: x\r\nid: ${onSecond.id}\r\nsession-id: ${onSecond.sessionId}\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n{"phone":"15550100001"`
      socket.on('error', () => undefined)
      socket.write(head.slice(0, cut))
      await new Promise(r => setTimeout(r, 50))
      socket.destroy()
    }
    expect(await healthy(0)).toBe(true)
    expect(await healthy(1)).toBe(true)
    expect(tripwire.hits).toBe(0)
    const still = await cluster.nodes[0]!.session(onSecond)
    expect(still).toMatchObject({ status: 200, body: { isConnected: true } })
  }, 120_000)

  it('gives nobody who reads Redis a way past the per-client limits, which count across the nodes', async () => {
    // everything Redis holds, as the attacker reads it
    const values: string[] = []
    for (const key of (await cluster.raw.command(['KEYS', '*'])) as Buffer[]) {
      const type = String(await cluster.raw.command(['TYPE', key.toString()]))
      if (type === 'string') values.push(String(await cluster.raw.command(['GET', key.toString()])))
      if (type === 'hash')
        for (const [f, v] of hashEntries(await cluster.raw.command(['HGETALL', key.toString()])))
          values.push(f, v.toString('latin1'))
    }
    expect(values.join('\n')).not.toContain(cluster.secret)
    // what a header can carry of them (sealed bytes cannot be sent as a header at all)
    const candidates = values.filter(v => v.length >= 16 && v.length <= 400 && /^[\x21-\x7e ]+$/.test(v)).slice(0, 40)
    // 6 creations a minute for this address on both nodes together (per node it would be 12 of 12)
    let created = 0
    let refused = 0
    for (let i = 0; i < 12; i++) {
      const peer = candidates[i % candidates.length] ?? 'x'
      const res = await fetch(`${cluster.nodes[i % 2]!.url}/session`, {
        method: 'POST',
        headers: { 'x-gateway-peer': peer, 'x-gateway-client': `198.51.100.${i}` },
      })
      if (res.status === 200) created++
      else {
        expect(res.status).toBe(429)
        expect(await res.json()).toEqual({ statusCode: 429, message: 'too many requests' })
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
        refused++
      }
    }
    expect(created).toBeLessThanOrEqual(7) // the bucket's 6, and one more if a token came back meanwhile
    expect(refused).toBeGreaterThanOrEqual(5)
  })

  it("keeps the real tenant's requests through a node quick while 300 stalled requests name its session", async () => {
    const stalled: net.Socket[] = []
    const answered: string[] = []
    for (let i = 0; i < 300; i++) {
      const socket = net.connect(portOf(0), '127.0.0.1')
      socket.on('error', () => undefined)
      socket.once('data', d => answered.push(d.toString('latin1').split('\r\n')[0]!))
      socket.write(
        `POST /message HTTP/1.1\r\nhost: x\r\nid: ${onSecond.id}\r\nsession-id: wrong-${i}\r\n` +
          'content-type: application/json\r\ncontent-length: 1000\r\n\r\n{"phone":',
      )
      stalled.push(socket)
    }
    try {
      await waitFor('every stalled request answered', async () => answered.length >= 300 || undefined, 20_000, 100)
      expect(new Set(answered)).toEqual(new Set(['HTTP/1.1 404 Not Found']))
      for (let i = 0; i < 10; i++) {
        const answer = await cluster.nodes[0]!.session(onSecond)
        expect(answer).toMatchObject({ status: 200, body: { isConnected: true } })
      }
      // answered while all 300 are still held open: before, one GET /session waited 8.9 s, until stalled bodies in
      // the pool to node-2 gave their connections back; now a forwarded request waits for nothing the stall holds
      expect(stalled.filter(s => s.destroyed || s.readableEnded)).toHaveLength(0)
      const sent = await cluster.burst(5, { via: () => [0], label: 'under the stall' })
      expect(sent.map(o => o.status)).toEqual([200, 200, 200, 200, 200])
    } finally {
      for (const s of stalled) s.destroy()
    }
  })

  it('forwards nothing to an address written into Redis as a node and a lease', async () => {
    const url = `http://127.0.0.1:${tripwire.port}`
    const evil = { node: 'evil', url, sessions: 0, accepting: true, expiresAt: 9e15 }
    await cluster.raw.command(['SET', 'gw:node:evil', JSON.stringify({ ...evil, mac: 'A'.repeat(43) }), 'PX', '60000'])
    await cluster.raw.command(['SADD', 'gw:nodes', 'evil'])
    await cluster.raw.command(['SET', `gw:{${onSecond.id}}:lease`, 'evil|999', 'PX', '60000'])
    // a node's heartbeat read the planted record, found it unsigned and dropped it from the set of nodes
    await waitFor('a node to read the planted record and drop it', async () => {
      const members = ((await cluster.raw.command(['SMEMBERS', 'gw:nodes'])) as Buffer[]).map(String)
      return !members.includes('evil')
    })
    // until node-1 reads the planted lease it still forwards to node-2, which runs the session (200)
    const res = await waitFor('node-1 to read the planted lease', async () => {
      const answer = await cluster.nodes[0]!.session(onSecond)
      return answer.status !== 200 && answer
    })
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ statusCode: 503, message: 'session is moving to another node, retry in 1 s' })
    expect(tripwire.hits).toBe(0)
  })
})
