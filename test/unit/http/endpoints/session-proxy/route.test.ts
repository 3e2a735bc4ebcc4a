/**
 * GET, PUT and DELETE /session/proxy on a fake session system: the answers show the proxy without its password and
 * say when a change applies, bad and refused proxies get the 400 docs/api.md lists, and the endpoints are
 * authenticated like every session endpoint.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { expectError } from '../../../../support/expect-error.js'
import { makeApp } from '../../../../support/fakes/fake-system.js'

const PROXY = 'socks5://alice:pw-Secret@127.0.0.1:1080'

describe('/session/proxy', () => {
  it('sets, shows and removes the session proxy, never answering the password', async () => {
    const { app, auth, system } = makeApp({ SESSION_PROXY_ALLOW_PRIVATE: 'true' })
    expect((await request(app).get('/session/proxy').set(auth)).body).toEqual({ proxy: null, source: 'none' })
    const set = await request(app).put('/session/proxy').set(auth).send({ proxy: PROXY })
    expect({ status: set.status, body: set.body }).toEqual({
      status: 200,
      body: { proxy: 'socks5://alice:***@127.0.0.1:1080', source: 'session', takesEffect: 'next-connection' },
    })
    expect(system.last()).toEqual({ type: 'setSessionProxy', proxy: PROXY })
    const shown = await request(app).get('/session/proxy').set(auth)
    expect(shown.body).toEqual({ proxy: 'socks5://alice:***@127.0.0.1:1080', source: 'session' })
    const removed = await request(app).delete('/session/proxy').set(auth)
    expect(removed.body).toEqual({ proxy: null, source: 'none', takesEffect: 'next-connection' })
    expect(system.last()).toEqual({ type: 'setSessionProxy', proxy: null })
    expect(set.text + shown.text + removed.text).not.toContain('pw-Secret')
  })

  it('answers a bad or refused proxy with its 400, and stores nothing', async () => {
    const { app, auth, system } = makeApp({ SESSION_PROXY_ALLOWED_HOSTS: 'proxy.test' })
    const put = (body: unknown) =>
      request(app)
        .put('/session/proxy')
        .set(auth)
        .send(body as object)
    expectError(await put({}), 400, 'proxy should not be empty')
    expectError(
      await put({ proxy: 'socks4://proxy.test' }),
      400,
      'proxy must be a socks5, socks5h, http or https URL with a host and no path',
    )
    expectError(await put({ proxy: PROXY }), 400, "proxy host is not on this gateway's list of allowed proxy hosts")
    expectError(
      await request(app).put('/session/proxy').set(auth).set('Content-Type', 'text/plain').send(PROXY),
      415,
      'content-type must be application/json',
    )
    expect(system.proxies.size).toBe(0)
    expect(system.commands).toEqual([])
  })

  it('is authenticated like every session endpoint', async () => {
    const { app } = makeApp()
    expectError(await request(app).get('/session/proxy'), 400, 'invalid header')
    expectError(
      await request(app).put('/session/proxy').set({ id: 'sess-1', 'session-id': 'wrong' }).send({ proxy: PROXY }),
      404,
      'session not found',
    )
  })
})
