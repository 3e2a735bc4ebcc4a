/**
 * @module test/support/tripwire
 * A loopback listener that only counts who reached it: the internal service an attacker would like a gateway to
 * reach for them. Tests name it in their attacks and check that it saw nothing.
 */
import net from 'node:net'
import { onLoopback } from './loopback-server.js'

export interface Tripwire {
  port: number
  /** Connections it accepted so far. */
  readonly hits: number
  /** Bytes it received so far (the start of each connection's first bytes, for the failure message). */
  readonly seen: string[]
  close(): Promise<void>
}

export async function startTripwire(): Promise<Tripwire> {
  const seen: string[] = []
  let hits = 0
  const served = await onLoopback(
    net.createServer(socket => {
      hits++
      socket.once('data', d => seen.push(d.toString('latin1').slice(0, 120)))
      socket.on('error', () => undefined)
      // answers like an internal service would, so a proxy that reached it would have something to pass back
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 17\r\n\r\n{"internal":true}')
    }),
  )
  return {
    port: served.port,
    get hits() {
      return hits
    },
    seen,
    close: served.close,
  }
}
