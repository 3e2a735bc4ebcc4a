import http from 'node:http'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../src/protocol/errors.js'
import { expectError } from '../../support/expect-error.js'
import { makeApp } from '../../support/fakes/fake-system.js'
import { onLoopback } from '../../support/loopback-server.js'

const TEXT = { phone: '5511999999999', type: 'text', text: 'hi' }

describe('not found', () => {
  it('answers 404 not found for unknown paths and unsupported methods', async () => {
    const { app, auth } = makeApp()
    expectError(await request(app).get('/nope'), 404, 'not found')
    expectError(await request(app).post('/').set(auth), 404, 'not found') // GET / is the QR page
    expectError(await request(app).put('/session').set(auth), 404, 'not found')
    expectError(await request(app).get('/message').set(auth), 404, 'not found')
  })

  it('answers 404 for every request to /webhook, whatever the method, headers or body', async () => {
    const { app, auth } = makeApp()
    expectError(await request(app).get('/webhook'), 404, 'not found')
    expectError(await request(app).get('/webhook').set(auth), 404, 'not found')
    expectError(
      await request(app).post('/webhook').set(auth).send({ url: 'http://x.test', token: 't' }),
      404,
      'not found',
    )
    expectError(
      await request(app).post('/webhook').set('Content-Type', 'application/json').send('{bad json'),
      404,
      'not found',
    )
    expectError(await request(app).delete('/webhook/anything'), 404, 'not found')
  })
})

describe('request bodies', () => {
  it('answers 400 body is not valid JSON on malformed JSON', async () => {
    const { app, auth, system } = makeApp()
    const res = await request(app).post('/message').set(auth).set('Content-Type', 'application/json').send('{"phone": ')
    expectError(res, 400, 'body is not valid JSON')
    expect(system.commands).toHaveLength(0)
  })

  it('answers 413 when the body is larger than BODY_LIMIT_BYTES', async () => {
    const { app, auth, system } = makeApp()
    const res = await request(app)
      .post('/message')
      .set(auth)
      .send({ ...TEXT, text: 'x'.repeat(5000) })
    expectError(res, 413, 'request body too large')
    expect(system.commands).toHaveLength(0)
  })

  it('accepts a body just under the limit', async () => {
    const { app, auth } = makeApp()
    const res = await request(app)
      .post('/message')
      .set(auth)
      .send({ ...TEXT, text: 'x'.repeat(3900) })
    expect(res.status).toBe(200)
  })

  it('answers 415 when a POST body is not JSON, or has no content type', async () => {
    const { app, auth } = makeApp()
    const plain = await request(app).post('/message').set(auth).set('Content-Type', 'text/plain').send('phone=1')
    expectError(plain, 415, 'content-type must be application/json')
    const form = await request(app).post('/status').set(auth).type('form').send({ type: 'text', text: 'x' })
    expectError(form, 415, 'content-type must be application/json')
    const none = await request(app).post('/typing').set(auth).set('Content-Type', '').send(Buffer.from('{}'))
    expectError(none, 415, 'content-type must be application/json')
  })

  it('accepts application/json with a charset parameter', async () => {
    const { app, auth } = makeApp()
    const res = await request(app)
      .post('/message')
      .set(auth)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify(TEXT))
    expect(res.status).toBe(200)
  })

  it('refuses a JSON body that is not an object', async () => {
    const { app, auth } = makeApp()
    expectError(await request(app).post('/message').set(auth).send([TEXT]), 400, 'body must be a JSON object')
    const scalar = await request(app).post('/status').set(auth).set('Content-Type', 'application/json').send('"text"')
    expectError(scalar, 400, 'body must be a JSON object')
  })

  it('validates a POST without any body like an empty object', async () => {
    const { app, auth } = makeApp()
    expectError(await request(app).post('/status').set(auth), 400, 'type should not be empty')
    expectError(
      await request(app).post('/message').set(auth),
      400,
      'invalid phone, group or newsletter\ntype should not be empty',
    )
  })
})

describe('error table (SPEC: Errors), errors raised by the system', () => {
  const cases: [string, unknown, number, string][] = [
    ['SESSION_NOT_CONNECTED', new GatewayError('SESSION_NOT_CONNECTED'), 500, 'session not connected'],
    [
      'MEDIA_DOWNLOAD_FAILED',
      new GatewayError('MEDIA_DOWNLOAD_FAILED', { detail: '404 Not Found' }),
      500,
      'error parser file from url 404 Not Found',
    ],
    ['CHANNEL_NOT_FOUND', new GatewayError('CHANNEL_NOT_FOUND'), 500, 'channel not found'],
    [
      'CONTACTS_NOT_SYNCED',
      new GatewayError('CONTACTS_NOT_SYNCED'),
      500,
      'contacts not synced, reconnect the session or set status privacy to "only share with"',
    ],
    [
      'STATUS_ONLY_SHARE_EMPTY',
      new GatewayError('STATUS_ONLY_SHARE_EMPTY'),
      500,
      'status privacy "only share with" has no contacts',
    ],
    [
      'WORKER_CRASHED',
      new GatewayError('WORKER_CRASHED'),
      500,
      'session worker restarted during the request, retry it',
    ],
    ['OVERLOADED', new GatewayError('OVERLOADED'), 503, 'server busy, retry later'],
    ['wire error (plain object)', { code: 'CHANNEL_NOT_FOUND', details: {} }, 500, 'channel not found'],
    [
      'INTERNAL with a private cause',
      new GatewayError('INTERNAL', { cause: 'db path /secret' }),
      500,
      'internal server error',
    ],
    [
      'a wire error with its details',
      new GatewayError('PLATFORM_REJECTED', { platformCode: '463' }).toWire(),
      500,
      'the platform rejected the message (error 463)',
    ],
  ]
  it.each(cases)('%s', async (_name, error, status, message) => {
    const { app, auth, system } = makeApp()
    system.onRun = () => {
      throw error
    }
    expectError(await request(app).post('/message').set(auth).send(TEXT), status, message)
    expectError(await request(app).get('/channel/message?channelId=1@newsletter').set(auth), status, message)
  })

  it('adds Retry-After to 503 responses', async () => {
    const { app, auth, system } = makeApp()
    system.onRun = () => Promise.reject(new GatewayError('OVERLOADED'))
    const res = await request(app).get('/group').set(auth)
    expectError(res, 503, 'server busy, retry later')
    expect(res.headers['retry-after']).toBe('1')
  })

  it('sends the Retry-After an error carries, after it crossed from a worker thread as data', async () => {
    const { app, auth, system } = makeApp()
    const wire = new GatewayError('UNPAIRED_FULL', { max: 20, retryAfterSeconds: 170 }).toWire()
    system.onRun = () => Promise.reject(structuredClone(wire))
    const full = await request(app).get('/group').set(auth)
    expectError(full, 503, 'too many sessions awaiting a QR scan on this server (20), retry in 170 s')
    expect(full.headers['retry-after']).toBe('170')

    // a session on its way to another node: the fixed wait, and the mark a forwarding node reads
    system.onRun = () => Promise.reject(structuredClone(new GatewayError('SESSION_MOVING').toWire()))
    const moving = await request(app).get('/group').set(auth)
    expectError(moving, 503, 'session is moving to another node, retry in 1 s')
    expect([moving.headers['retry-after'], moving.headers['x-gateway-moving']]).toEqual(['1', '1'])

    // a 500 says nothing about retrying
    system.onRun = () => Promise.reject(new GatewayError('GROUP_NOT_FOUND'))
    expect((await request(app).get('/group').set(auth)).headers['retry-after']).toBeUndefined()
  })

  it("logs an error's cause, which the client never sees", async () => {
    const { app, auth, system, logs } = makeApp()
    const wire = new GatewayError('INTERNAL', { cause: new Error('companion_hello without a pairing ref') }).toWire()
    system.onRun = () => Promise.reject(structuredClone(wire))
    const res = await request(app).get('/group').set(auth)
    expectError(res, 500, 'internal server error')
    expect(res.text).not.toContain('pairing ref')
    expect(logs.find(l => l.msg === 'request failed')).toMatchObject({
      level: 40,
      code: 'INTERNAL',
      cause: 'Error: companion_hello without a pairing ref',
    })
  })

  it('turns any other thrown value into 500 internal server error, logged with its stack, never sent', async () => {
    const { app, auth, system, logs } = makeApp()
    system.onRun = () => {
      throw new TypeError('boom: secret detail')
    }
    const res = await request(app).get('/group').set(auth)
    expectError(res, 500, 'internal server error')
    expect(res.text).not.toContain('boom')
    const logged = logs.find(l => l.msg === 'unexpected error in request') as { err?: { stack?: string } }
    expect(logged?.err?.stack).toContain('boom: secret detail')

    system.onRun = () => Promise.reject('a bare string')
    expectError(await request(app).get('/channel').set(auth), 500, 'internal server error')
  })

  it('turns a throwing authenticate into 500 internal server error without details', async () => {
    const { app, auth, system } = makeApp()
    system.authenticate = () => {
      throw new Error('cache exploded')
    }
    const res = await request(app).get('/session').set(auth)
    expectError(res, 500, 'internal server error')
    expect(res.text).not.toContain('cache exploded')
  })
})

describe('client hang-up', () => {
  it('aborts the signal given to the system when the client disconnects before the reply', async () => {
    const { app, auth, system } = makeApp()
    let seen: AbortSignal | undefined
    system.onRun = (_id, _command) =>
      new Promise(() => {
        seen = system.commands.at(-1)?.signal
      })
    const { port, close } = await onLoopback(http.createServer(app))
    try {
      const req = http.get({ host: '127.0.0.1', port, path: '/group', headers: auth })
      req.on('error', () => {})
      await expect.poll(() => seen, { timeout: 20_000 }).toBeDefined()
      expect(seen?.aborted).toBe(false)
      req.destroy()
      await expect.poll(() => seen?.aborted, { timeout: 20_000 }).toBe(true)
    } finally {
      await close()
    }
  })

  it('leaves the signal alone once the response is sent', async () => {
    const { app, auth, system } = makeApp()
    expect((await request(app).get('/group').set(auth)).status).toBe(200)
    expect(system.commands[0]?.signal?.aborted).toBe(false)
  })
})
