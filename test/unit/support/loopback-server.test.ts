/**
 * The tests' own loopback server (test/support/loopback-server.ts): it listens on 127.0.0.1 at the URL it names,
 * its `close` does not wait on a connection the server holds open, and a refused port refuses.
 */
import http from 'node:http'
import https from 'node:https'
import { generate } from 'selfsigned'
import { describe, expect, it } from 'vitest'
import { onLoopback, refusedPort } from '../../support/loopback-server.js'
import { waitFor } from '../../support/wait-for.js'

describe('onLoopback', () => {
  it('serves on 127.0.0.1 at the URL it names, https for a TLS server', async () => {
    const plain = await onLoopback(http.createServer((req, res) => res.end(req.socket.localAddress)))
    try {
      expect(plain.url).toBe(`http://127.0.0.1:${plain.port}`)
      expect(await (await fetch(plain.url)).text()).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
    } finally {
      await plain.close()
    }
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], { keyType: 'ec', algorithm: 'sha256' })
    const secure = await onLoopback(https.createServer({ key: pems.private, cert: pems.cert }))
    expect(secure.url).toBe(`https://127.0.0.1:${secure.port}`)
    await secure.close()
  })

  it('closes while a request it never answers holds a connection, and the client sees the connection end', async () => {
    let held = false
    const served = await onLoopback(
      http.createServer(() => {
        held = true
      }),
    )
    const request = http.get(`${served.url}/held`)
    const ended = new Promise<string>(resolve =>
      request.once('error', err => resolve((err as NodeJS.ErrnoException).code ?? '')),
    )
    await waitFor('the request held', () => held, 5_000, 20)
    await served.close()
    expect(await ended).toBe('ECONNRESET')
    expect(served.server.listening).toBe(false)
  })
})

describe('refusedPort', () => {
  it('names a loopback port where a connection is refused', async () => {
    const port = await refusedPort()
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } })
  })
})
