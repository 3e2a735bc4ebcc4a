import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { expectError } from '../../../support/expect-error.js'
import { makeApp } from '../../../support/fakes/fake-system.js'

/** Every authenticated endpoint, with a valid request for it and an invalid body/query where it takes one. */
const ENDPOINTS: {
  name: string
  call: (r: request.Agent) => request.Test
  bad?: (r: request.Agent) => request.Test
}[] = [
  { name: 'GET /session', call: r => r.get('/session') },
  { name: 'POST /session/reset', call: r => r.post('/session/reset') },
  { name: 'DELETE /session', call: r => r.delete('/session') },
  {
    name: 'POST /session/pairing-code',
    call: r => r.post('/session/pairing-code').send({ phone: '+1 555 000 0001' }),
    bad: r => r.post('/session/pairing-code').send({ phone: '12' }),
  },
  {
    name: 'POST /message',
    call: r => r.post('/message').send({ phone: '5511999999999', type: 'text', text: 'hi' }),
    bad: r => r.post('/message').send({ phone: '5511999999999', type: 'text' }),
  },
  {
    name: 'POST /status',
    call: r => r.post('/status').send({ type: 'text', text: 'hi' }),
    bad: r => r.post('/status').send({ type: 'audio' }),
  },
  {
    name: 'POST /typing',
    call: r => r.post('/typing').send({ phone: '5511999999999' }),
    bad: r => r.post('/typing').send({}),
  },
  { name: 'GET /group', call: r => r.get('/group') },
  {
    name: 'GET /group/:groupId',
    call: r => r.get('/group/120363000000000001@g.us'),
    bad: r => r.get('/group/not-a-group'),
  },
  {
    name: 'GET /group/member',
    call: r => r.get('/group/member?groupId=120363000000000001@g.us'),
    bad: r => r.get('/group/member'),
  },
  { name: 'GET /channel', call: r => r.get('/channel') },
  {
    name: 'GET /channel/message',
    call: r => r.get('/channel/message?channelId=1@newsletter'),
    bad: r => r.get('/channel/message?before=x'),
  },
]

const NEEDS_CONNECTION = new Set([
  'POST /message',
  'POST /status',
  'POST /typing',
  'GET /group',
  'GET /group/:groupId',
  'GET /group/member',
  'GET /channel',
  'GET /channel/message',
])

describe.each(ENDPOINTS)('$name', ({ name, call, bad }) => {
  it('answers 400 invalid header when id or session-id is missing or empty', async () => {
    const { app, auth } = makeApp()
    const agent = request.agent(app)
    expectError(await call(agent), 400, 'invalid header')
    expectError(await call(agent).set('id', auth.id), 400, 'invalid header')
    expectError(await call(agent).set('session-id', auth['session-id']), 400, 'invalid header')
    expectError(await call(agent).set({ id: '', 'session-id': auth['session-id'] }), 400, 'invalid header')
    expectError(await call(agent).set({ id: auth.id, 'session-id': '' }), 400, 'invalid header')
  })

  it('answers 404 session not found for an unknown id and for a wrong session-id alike', async () => {
    const { app, auth, system } = makeApp()
    const agent = request.agent(app)
    const unknown = await call(agent).set({ id: 'nobody', 'session-id': auth['session-id'] })
    const wrongSecret = await call(agent).set({ id: auth.id, 'session-id': 'not-the-secret' })
    expectError(unknown, 404, 'session not found')
    expectError(wrongSecret, 404, 'session not found')
    expect(wrongSecret.text).toBe(unknown.text)
    expect(system.commands).toHaveLength(0)
    expect(system.resets.length + system.deletes.length).toBe(0)
  })

  it('checks the headers before the session, and the session before the body', async () => {
    const { app, auth } = makeApp()
    const agent = request.agent(app)
    if (bad) {
      expectError(await bad(agent), 400, 'invalid header')
      expectError(await bad(agent).set({ id: 'nobody', 'session-id': 'x' }), 404, 'session not found')
      const validation = await bad(agent).set(auth)
      expect(validation.status).toBe(400)
      expect(validation.body.message).not.toBe('invalid header')
    }
    expect((await call(agent).set(auth)).status).toBe(200)
  })

  it(
    NEEDS_CONNECTION.has(name)
      ? 'validates before the connection check, then answers 500 session not connected'
      : 'works while the session is not connected',
    async () => {
      const { app, system } = makeApp()
      const offline = system.add('offline', 'secret-offline', { state: 'awaiting-qr', isConnected: false })
      const headers = { id: offline.id, 'session-id': offline.sessionId }
      const agent = request.agent(app)
      if (NEEDS_CONNECTION.has(name)) {
        if (bad) {
          const validation = await bad(agent).set(headers)
          expect(validation.status).toBe(400)
        }
        expectError(await call(agent).set(headers), 500, 'session not connected')
      } else {
        expect((await call(agent).set(headers)).status).toBe(200)
      }
    },
  )
})

describe('body-level failures follow the session checks', () => {
  it('reports a missing header before malformed JSON, an oversized body or a wrong content type', async () => {
    const { app } = makeApp()
    const json = request(app).post('/message').set('Content-Type', 'application/json')
    expectError(await json.send('{bad'), 400, 'invalid header')
    expectError(
      await request(app)
        .post('/message')
        .send({ text: 'x'.repeat(10_000) }),
      400,
      'invalid header',
    )
    expectError(await request(app).post('/message').type('text/plain').send('hello'), 400, 'invalid header')
  })

  it('reports an unknown session before malformed JSON', async () => {
    const { app } = makeApp()
    const res = await request(app)
      .post('/status')
      .set({ id: 'x', 'session-id': 'y' })
      .set('Content-Type', 'application/json')
      .send('{bad')
    expectError(res, 404, 'session not found')
  })

  it('never runs a command for an invalid body', async () => {
    const { app, auth, system } = makeApp()
    await request(app).post('/message').set(auth).send({ type: 'text', text: 'no destination' })
    await request(app).post('/status').set(auth).send({ type: 'image' })
    await request(app).post('/typing').set(auth).send({ group: 'bad' })
    await request(app).get('/group/member?groupId=').set(auth)
    await request(app).post('/session/pairing-code').set(auth).send({ phone: 'call me' })
    expect(system.commands).toHaveLength(0)
  })
})
