/**
 * @module platform/baileys/link/write-gate
 * Cluster mode: a link writes nothing once its node may no longer hold the session's lease. A node paused past
 * its lease (SIGSTOP, a long GC, a frozen VM) wakes with timers overdue: Baileys' keep-alive, a send that was
 * waiting, a receipt may fire before the lease keeper's own check notices the lease is gone, and each would
 * write a stanza on a connection the platform already superseded with the new owner's login. The gate sits on the
 * WebSocket itself, under every Baileys write: when `mayWrite()` says no, the frame is dropped and the socket
 * terminated (the session run, cluster/store/leased-runs.ts, reports the close as a lost connection; the actor never
 * logs out).
 */
import type { Logger } from 'pino'
import type { WASocket } from '@whiskeysockets/baileys'

interface RawSocket {
  send(data: unknown, cb?: (err?: Error) => void): void
  terminate(): void
}

export function gateWrites(sock: WASocket, mayWrite: () => boolean, log: Logger): void {
  // Baileys' WebSocketClient creates the `ws` socket in connect(), which makeWASocket calls before returning
  const raw = (sock.ws as unknown as { socket: RawSocket | null }).socket
  if (!raw) return
  const send = raw.send.bind(raw)
  let refused = false
  raw.send = (data, cb) => {
    if (mayWrite()) return send(data, cb)
    if (!refused) log.warn("the session's lease may have moved: dropping the write and closing the socket")
    refused = true
    cb?.(new Error("the session's lease may have moved to another node"))
    raw.terminate()
  }
}
