/**
 * @module platform/ack
 * Waits for the server's `<ack class="message" id=…>` (BAILEYS-MAPPING §2.5): `sendMessage` resolves when the stanza
 * is written, not when the platform accepted it. Register BEFORE sending. An `error` attribute →
 * PLATFORM_REJECTED `the platform rejected the message (error 463)`; no ack in time → PLATFORM_TIMEOUT; the socket
 * closing first → SESSION_NOT_CONNECTED.
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import { GatewayError } from '../protocol/errors.js'

export const ACK_EVENT = 'CB:ack,class:message'

export interface AckEmitter {
  on(event: string, listener: (node: BinaryNode) => void): unknown
  off(event: string, listener: (node: BinaryNode) => void): unknown
}

export const rejectedError = (code: string): GatewayError =>
  new GatewayError('PLATFORM_REJECTED', `the platform rejected the message (error ${code})`)

export interface AckWait {
  promise: Promise<BinaryNode>
  cancel(): void
}

/**
 * Starts waiting for the ack of message `id`. `cancel()` detaches (the promise then never settles). `closed` fires
 * when the link's socket ends (Baileys' `end()` strips the ws 'close' listeners, so the link signals it itself).
 */
export function waitForAck(ws: AckEmitter, id: string, timeoutMs: number, closed?: AbortSignal): AckWait {
  let cleanup = () => {}
  const promise = new Promise<BinaryNode>((resolve, reject) => {
    const onAck = (node: BinaryNode) => {
      if (node.attrs.id !== id) return
      cleanup()
      if (node.attrs.error) reject(rejectedError(node.attrs.error))
      else resolve(node)
    }
    const onClose = () => { cleanup(); reject(new GatewayError('SESSION_NOT_CONNECTED')) }
    const timer = setTimeout(() => { cleanup(); reject(new GatewayError('PLATFORM_TIMEOUT')) }, timeoutMs)
    cleanup = () => { clearTimeout(timer); ws.off(ACK_EVENT, onAck); closed?.removeEventListener('abort', onClose) }
    ws.on(ACK_EVENT, onAck)
    if (closed?.aborted) onClose()
    else closed?.addEventListener('abort', onClose, { once: true })
  })
  promise.catch(() => undefined) // the caller awaits it later; avoid an unhandled rejection meanwhile
  return { promise, cancel: () => cleanup() }
}

/** Registers the ack wait, runs `send`, then waits. On a send failure the wait is dropped. */
export async function sendAndAwaitAck<T>(ws: AckEmitter, id: string, timeoutMs: number, send: () => Promise<T>,
  closed?: AbortSignal): Promise<T> {
  const ack = waitForAck(ws, id, timeoutMs, closed)
  let result: T
  try {
    result = await send()
  } catch (err) {
    ack.cancel()
    throw err
  }
  await ack.promise
  return result
}
