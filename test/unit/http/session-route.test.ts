/**
 * The one handler of a session's endpoints (src/http/session-route.ts), on a route of its own: what the route's work
 * is handed, and the order of the steps before it, each one stopping the request (authentication, the rate, the
 * body, validation), seen from the client.
 */
import express from 'express'
import pino from 'pino'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appSettings } from '../../../src/http/deps.js'
import { errorHandler } from '../../../src/http/errors.js'
import { type SessionRouteOptions, sessionRoute } from '../../../src/http/session-route.js'
import { validationFailed } from '../../../src/protocol/errors.js'
import { loadSettings } from '../../../src/gateway-settings.js'
import { expectError } from '../../support/expect-error.js'
import { FakeSystem } from '../../support/fakes/fake-system.js'

/** POST /echo on a session route with `options`; `worked` lists what each call of the work was handed. */
function echoApp(options: SessionRouteOptions<{ word: string }>, env: NodeJS.ProcessEnv = {}) {
  const system = new FakeSystem()
  const { id, sessionId } = system.add()
  const settings = appSettings(loadSettings({ BODY_LIMIT_BYTES: '64', ...env }))
  const deps = { system, settings, logger: pino({ level: 'silent' }) }
  const worked: Array<{ id: string; word: string }> = []
  const app = express()
  app.post(
    '/echo',
    sessionRoute(deps, options, ({ session, input }) => {
      worked.push({ id: session.id, word: input.word })
      return { echo: input.word, id: session.id }
    }),
  )
  app.use(errorHandler(deps.logger))
  return { app, worked, auth: { id, 'session-id': sessionId } }
}

const parse = (req: express.Request) => {
  const word = (req.body as { word?: unknown } | undefined)?.word
  if (typeof word !== 'string') throw validationFailed(['word is required'])
  return { word }
}

describe('sessionRoute', () => {
  it("hands the work the caller's session and the validated input, and answers with what it returns", async () => {
    const { app, worked, auth } = echoApp({ body: true, parse })
    const res = await request(app).post('/echo').set(auth).send({ word: 'hi' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ echo: 'hi', id: auth.id })
    expect(worked).toEqual([{ id: auth.id, word: 'hi' }])
  })

  it('authenticates before it reads a body: a stranger gets 400 or 404, whatever it sends', async () => {
    const { app, worked, auth } = echoApp({ body: true, parse })
    const tooLarge = { word: 'x'.repeat(200) }
    expectError(await request(app).post('/echo').send(tooLarge), 400, 'invalid header')
    const wrong = { ...auth, 'session-id': 'not-the-secret' }
    expectError(await request(app).post('/echo').set(wrong).send(tooLarge), 404, 'session not found')
    expectError(await request(app).post('/echo').set(auth).send(tooLarge), 413, 'request body too large')
    expect(worked).toEqual([])
  })

  it('takes the rate before the body: over it, even a broken body is a 429', async () => {
    const { app, worked, auth } = echoApp(
      { rate: 'send', body: true, parse },
      { SEND_RATE_PER_SECOND: '0.001', SEND_BURST: '1' },
    )
    expect((await request(app).post('/echo').set(auth).send({ word: 'one' })).status).toBe(200)
    const res = await request(app).post('/echo').set(auth).set('content-type', 'application/json').send('{broken')
    expect(res.status).toBe(429)
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    expect(worked.map(w => w.word)).toEqual(['one'])
  })

  it('with rateAfterValidation, a request that fails validation costs no token', async () => {
    const { app, worked, auth } = echoApp(
      { rate: 'send', rateAfterValidation: true, body: true, parse },
      { SEND_RATE_PER_SECOND: '0.001', SEND_BURST: '1' },
    )
    expect((await request(app).post('/echo').set(auth).send({})).status).toBe(400)
    expect((await request(app).post('/echo').set(auth).send({ word: 'fixed' })).status).toBe(200)
    expect((await request(app).post('/echo').set(auth).send({ word: 'again' })).status).toBe(429)
    expect(worked.map(w => w.word)).toEqual(['fixed'])
  })
})
