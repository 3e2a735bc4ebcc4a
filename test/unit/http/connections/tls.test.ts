/**
 * The connection guard on the HTTPS server (TLS_CERT_FILE, what cluster nodes use between them): a connection past
 * the cap is closed before any TLS is spoken, and a never-reading client of a large answer is cut by the write
 * time-out, watched on the TLS socket the answer is written on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import { generate } from 'selfsigned'
import { afterEach, describe, expect, it } from 'vitest'
import { ConnectionGuard } from '../../../../src/http/connections/connection-guard.js'
import { createHttpServer } from '../../../../src/http/server.js'
import { loadSettings } from '../../../../src/gateway-settings.js'
import { onLoopback, type OnLoopback } from '../../../support/loopback-server.js'
import { waitFor } from '../../../support/wait-for.js'

/** More than the kernel's socket buffers take on loopback. */
const BIG = Buffer.alloc(12 * 1024 * 1024, 'x')

let served: OnLoopback<Server> | undefined
let dir: string | undefined
const clients: tls.TLSSocket[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy()
  await served?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
  served = dir = undefined
})

async function serveTls(env: NodeJS.ProcessEnv): Promise<{ guard: ConnectionGuard; port: number }> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], { keyType: 'ec', algorithm: 'sha256' })
  dir = mkdtempSync(path.join(os.tmpdir(), 'guard-tls-'))
  const files = { certFile: path.join(dir, 'cert.pem'), keyFile: path.join(dir, 'key.pem') }
  writeFileSync(files.certFile, pems.cert)
  writeFileSync(files.keyFile, pems.private)
  const guard = new ConnectionGuard(loadSettings(env))
  served = await onLoopback(createHttpServer((_req, res) => res.end(BIG), files, guard))
  return { guard, port: served.port }
}

/** A TLS connection: resolves once its handshake is done, or with the error that ended it. */
async function connect(port: number): Promise<{ socket: tls.TLSSocket; error?: Error }> {
  const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false })
  clients.push(socket)
  return new Promise(resolve => {
    socket.once('secureConnect', () => resolve({ socket }))
    socket.once('error', error => resolve({ socket, error }))
  })
}

describe('the connection guard over TLS', () => {
  it('closes a connection past CONNECTIONS_PER_CLIENT before its handshake, and counts it', async () => {
    const { guard, port } = await serveTls({ CONNECTIONS_PER_CLIENT: '1' })
    expect((await connect(port)).error).toBeUndefined()
    expect((await connect(port)).error).toBeInstanceOf(Error)
    expect(guard.refusedBy('client')).toBe(1)
  })

  it('cuts a client that never reads its answer after ANSWER_WRITE_TIMEOUT_MS', async () => {
    const { guard, port } = await serveTls({ ANSWER_WRITE_TIMEOUT_MS: '300' })
    const { socket } = await connect(port)
    socket.pause()
    socket.write('GET /big HTTP/1.1\r\nhost: x\r\n\r\n')
    await waitFor('the answer cut', () => guard.cut === 1, 10_000, 50)
    await waitFor('the connection gone', () => guard.open === 0, 10_000, 50)
  })
})
