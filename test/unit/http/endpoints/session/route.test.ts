import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import { expectError } from '../../../../support/expect-error.js'
import { startDnsServer } from '../../../../support/fakes/dns-server.js'
import { keys, makeApp } from '../../../../support/fakes/fake-system.js'

describe('POST /session', () => {
  it('creates a session without any header and answers exactly { id, sessionId }', async () => {
    const { app, system } = makeApp()
    const res = await request(app).post('/session')
    expect(res.status).toBe(200)
    expect(keys(res.body)).toEqual(['id', 'sessionId'])
    expect(res.body).toEqual({ id: 'new-1', sessionId: 'secret-new-1' })
    expect(system.sessions.has('new-1')).toBe(true)
  })

  it("ignores headers; without a body, or with an empty one, it is the spec's POST /session (no content type asked)", async () => {
    const { app, auth, system } = makeApp()
    const res = await request(app).post('/session').set(auth).set('Content-Type', 'text/plain')
    expect(res.status).toBe(200)
    expect(res.body.id).toBe('new-1')
    for (const body of ['', '{}', 'null', '{"proxy": ""}'])
      expect((await request(app).post('/session').set('Content-Type', 'application/json').send(body)).status).toBe(200)
    expect(system.proxies.size).toBe(0)
  })

  it('takes an optional proxy in a JSON body, checked, and refuses a body that is not one', async () => {
    const { app, system } = makeApp({ SESSION_PROXY_ALLOW_PRIVATE: 'true' })
    const res = await request(app).post('/session').send({ proxy: 'socks5://al:pw@127.0.0.1:1080' })
    expect(res.status).toBe(200)
    expect(system.proxies.get(res.body.id)).toBe('socks5://al:pw@127.0.0.1:1080')
    expectError(
      await request(app).post('/session').send({ proxy: 'ftp://127.0.0.1' }),
      400,
      'proxy must be a socks5, socks5h, http or https URL with a host and no path',
    )
    expectError(await request(app).post('/session').send({ proxy: 7 }), 400, 'proxy must be a string')
    expectError(
      await request(app).post('/session').set('Content-Type', 'application/json').send('{oops'),
      400,
      'body is not valid JSON',
    )
    expectError(
      await request(app).post('/session').set('Content-Type', 'text/plain').send('{"proxy": "socks5://127.0.0.1:1"}'),
      415,
      'content-type must be application/json',
    )
    const strict = makeApp()
    expectError(
      await request(strict.app).post('/session').send({ proxy: 'socks5://127.0.0.1:1080' }),
      400,
      'proxy leads to a private or local address',
    )
    expect(strict.system.sessions.size).toBe(1) // only the default one: nothing was created
  })

  it("tells a stranger nothing of the gateway's DNS: a name that does not resolve and an internal one get one answer", async () => {
    // the stub DNS server knows one internal name (a loopback answer); any other name does not exist
    const dns = await startDnsServer({ 'internal.test': { a: ['127.0.0.9'] } })
    try {
      const { app, system } = makeApp({ MEDIA_DNS_SERVERS: dns.address })
      const answer = async (host: string) => {
        const res = await request(app)
          .post('/session')
          .send({ proxy: `socks5://${host}:1080` })
        return { status: res.status, body: res.body, headers: { type: res.headers['content-type'] } }
      }
      const [internal, missing] = [await answer('internal.test'), await answer('nowhere.test')]
      expect(internal).toEqual({
        status: 400,
        body: { statusCode: 400, message: 'proxy host name does not resolve to a public address' },
        headers: { type: expect.stringMatching(/^application\/json/) },
      })
      expect(missing).toEqual(internal)
      expect(dns.queries).toEqual(expect.arrayContaining(['internal.test A', 'nowhere.test A']))
      expect(system.sessions.size).toBe(1) // only the default one: nothing was created
    } finally {
      await dns.close()
    }
  })

  it('answers 500 internal server error when creation fails, with the cause logged only', async () => {
    const { app, system, logs } = makeApp()
    system.onCreate = () => Promise.reject(new Error('disk full at /var/data'))
    const res = await request(app).post('/session')
    expectError(res, 500, 'internal server error')
    expect(res.text).not.toContain('disk full')
    expect(JSON.stringify(logs)).toContain('disk full')
    system.onCreate = () => Promise.reject(new GatewayError('PLATFORM_TIMEOUT'))
    expectError(await request(app).post('/session'), 500, 'internal server error')
  })

  it('passes 503 back-pressure through', async () => {
    const { app, system } = makeApp()
    system.onCreate = () => Promise.reject(new GatewayError('OVERLOADED'))
    expectError(await request(app).post('/session'), 503, 'server busy, retry later')
  })

  it('never answers with an extra field the system returned', async () => {
    const { app, system } = makeApp()
    system.onCreate = async () => ({ id: 'a', sessionId: 'b', secretKey: 'k' }) as { id: string; sessionId: string }
    const res = await request(app).post('/session')
    expect(res.body).toStrictEqual({ id: 'a', sessionId: 'b' })
  })
})

describe('GET /session', () => {
  it('answers exactly the seven Session fields, from the snapshot, with the session-id echoed', async () => {
    const { app, system } = makeApp()
    system.add('s2', 'secret-2', {
      generatedId: '5511999999999:3@s.whatsapp.net',
      name: 'Ana',
      picture: 'https://p.test/a.jpg',
      version: 9,
    })
    const res = await request(app).get('/session').set({ id: 's2', 'session-id': 'secret-2' })
    expect(res.status).toBe(200)
    expect(keys(res.body)).toEqual(['generatedId', 'id', 'isConnected', 'name', 'picture', 'qrcode', 'sessionId'])
    expect(res.body).toEqual({
      id: 's2',
      generatedId: '5511999999999:3@s.whatsapp.net',
      name: 'Ana',
      sessionId: 'secret-2',
      isConnected: true,
      qrcode: '',
      picture: 'https://p.test/a.jpg',
    })
  })

  it('shows the QR of a session awaiting its scan, without a data: prefix', async () => {
    const { app, system } = makeApp()
    const created = (await request(app).post('/session')).body as { id: string; sessionId: string }
    const res = await request(app).get('/session').set({ id: created.id, 'session-id': created.sessionId })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ isConnected: false, qrcode: 'iVBORw0KGgo=', generatedId: '', name: '' })
    expect(system.commands).toHaveLength(0)
  })

  it('answers 404 for a snapshot already marked deleted', async () => {
    const { app, system } = makeApp()
    system.add('gone', 'secret-gone', { state: 'deleted' })
    expectError(
      await request(app).get('/session').set({ id: 'gone', 'session-id': 'secret-gone' }),
      404,
      'session not found',
    )
  })
})

describe('POST /session/reset and DELETE /session', () => {
  it('resets pairing and answers exactly { id, sessionId }', async () => {
    const { app, auth, system } = makeApp()
    const res = await request(app).post('/session/reset').set(auth)
    expect(res.status).toBe(200)
    expect(res.body).toStrictEqual({ id: auth.id, sessionId: auth['session-id'] })
    expect(system.resets).toEqual([auth.id])
  })

  it('deletes the session and answers exactly { id }; the session is then not found', async () => {
    const { app, auth, system } = makeApp()
    const res = await request(app).delete('/session').set(auth)
    expect(res.status).toBe(200)
    expect(res.body).toStrictEqual({ id: auth.id })
    expect(system.deletes).toEqual([auth.id])
    expectError(await request(app).get('/session').set(auth), 404, 'session not found')
  })

  it('passes system errors to the mapper', async () => {
    const { app, auth, system } = makeApp()
    system.resetSession = () => Promise.reject(new GatewayError('OVERLOADED'))
    expectError(await request(app).post('/session/reset').set(auth), 503, 'server busy, retry later')
    system.deleteSession = () => Promise.reject(new Error('lmdb closed'))
    expectError(await request(app).delete('/session').set(auth), 500, 'internal server error')
  })
})

describe('POST /session rate limit', () => {
  it('answers 429 too many requests past the per-client limit, with Retry-After, and other endpoints still work', async () => {
    const { app, auth } = makeApp({ SESSION_CREATE_PER_MINUTE: '3' })
    for (let i = 0; i < 3; i++) expect((await request(app).post('/session')).status).toBe(200)
    const limited = await request(app).post('/session')
    expectError(limited, 429, 'too many requests')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect((await request(app).get('/session').set(auth)).status).toBe(200)
  })

  it('can be turned off', async () => {
    const { app } = makeApp({ SESSION_CREATE_PER_MINUTE: '0' })
    for (let i = 0; i < 40; i++) expect((await request(app).post('/session')).status).toBe(200)
  })
})

describe('POST /session on a full server', () => {
  it('passes the 503 through with its message and a Retry-After', async () => {
    const t = makeApp()
    t.system.onCreate = async () => {
      throw new GatewayError('SESSIONS_FULL', { max: 2 })
    }
    const res = await request(t.app).post('/session')
    expectError(res, 503, 'session limit reached (2 sessions on this server), retry later')
    expect(res.headers['retry-after']).toBeDefined()
  })
})
