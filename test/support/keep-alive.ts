/**
 * @module test/support/keep-alive
 * A client that keeps its connection alive and comes back after a pause, on a raw socket: what a connection pool
 * (or a load balancer) does. Node's HTTP server closes an idle kept-alive connection after 5 s unless told
 * otherwise, and a pool reusing it just then gets `ECONNRESET` / `socket hang up`.
 */
import { createConnection, type Socket } from 'node:net'

/** Writes one GET on the socket and resolves with the response head and body (a short JSON body). */
function exchange(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const onData = (d: Buffer) => {
      text += d
      const head = text.indexOf('\r\n\r\n')
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text)?.[1]
      if (head >= 0 && length !== undefined && Buffer.byteLength(text.slice(head + 4)) >= Number(length)) done()
    }
    const onClose = () => done(new Error(`connection closed by the server; received: ${JSON.stringify(text)}`))
    const done = (err?: Error) => {
      socket.off('data', onData)
      socket.off('close', onClose)
      if (err) reject(err)
      else resolve(text)
    }
    socket.on('data', onData)
    socket.on('close', onClose)
    socket.write(`GET ${path} HTTP/1.1\r\nhost: test\r\nconnection: keep-alive\r\n\r\n`)
  })
}

/** One request, `idleMs` of silence, then a second request on the same connection: both responses. */
export async function reuseAfterIdle(port: number, path: string, idleMs: number): Promise<[string, string]> {
  const socket = createConnection(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  try {
    const first = await exchange(socket, path)
    await new Promise(resolve => setTimeout(resolve, idleMs))
    return [first, await exchange(socket, path)]
  } finally {
    socket.destroy()
  }
}
