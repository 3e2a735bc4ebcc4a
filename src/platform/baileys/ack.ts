/**
 * @module platform/baileys/ack
 * Waits for the server's `<ack class="message" id=…>` (BAILEYS-MAPPING §2.5): `sendMessage` resolves when the stanza
 * is written, not when the platform accepted it. Register BEFORE sending. An `error` attribute →
 * PLATFORM_REJECTED `the platform rejected the message (error 463)`; no ack in time (or a query on the way timing
 * out) → PLATFORM_TIMEOUT; the socket closing first → PLATFORM_CONNECTION_LOST (the stanza may be out: the client
 * is told it may have been delivered, rather than `session not connected`, which reads as never sent); the same
 * for a key write refused after the stanza went out (cluster mode: the lease moved), rather than "moving".
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import { GatewayError } from '../../protocol/errors.js'
import { isQueryTimeout } from './boom.js'
import { observeAck } from '../../metrics/observe.js'

export const ACK_EVENT = 'CB:ack,class:message'

export interface AckEmitter {
  on(event: string, listener: (node: BinaryNode) => void): unknown
  off(event: string, listener: (node: BinaryNode) => void): unknown
}

export const rejectedError = (platformCode: string): GatewayError =>
  new GatewayError('PLATFORM_REJECTED', { platformCode })

export interface AckWait {
  promise: Promise<BinaryNode>
  cancel(): void
  /** Starts the timeout clock (once; later calls do nothing). */
  arm(): void
}

/**
 * Starts waiting for the ack of message `id`. `cancel()` detaches (the promise then never settles). `closed` fires
 * when the link's socket ends (Baileys' `end()` strips the ws 'close' listeners, so the link signals it itself).
 * The timeout runs from `arm()` (at once unless `armLater`): the listener must be in place before the stanza goes
 * out, but the clock should start only once it is out, or a slow media upload would eat the ack's time.
 */
function waitForAck(ws: AckEmitter, id: string, timeoutMs: number, closed?: AbortSignal, armLater = false): AckWait {
  let cleanup = () => {}
  let arm = () => {}
  const promise = new Promise<BinaryNode>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    let settled = false
    const onAck = (node: BinaryNode) => {
      if (node.attrs.id !== id) return
      cleanup()
      if (node.attrs.error) reject(rejectedError(node.attrs.error))
      else resolve(node)
    }
    const onClose = () => {
      cleanup()
      reject(new GatewayError('PLATFORM_CONNECTION_LOST'))
    }
    arm = () => {
      if (timer || settled) return
      timer = setTimeout(() => {
        cleanup()
        reject(new GatewayError('PLATFORM_TIMEOUT'))
      }, timeoutMs)
    }
    cleanup = () => {
      settled = true
      clearTimeout(timer)
      ws.off(ACK_EVENT, onAck)
      closed?.removeEventListener('abort', onClose)
    }
    ws.on(ACK_EVENT, onAck)
    if (closed?.aborted) onClose()
    else closed?.addEventListener('abort', onClose, { once: true })
    if (!armLater) arm()
  })
  promise.catch(() => undefined) // the caller awaits it later; avoid an unhandled rejection meanwhile
  return { promise, cancel: () => cleanup(), arm: () => arm() }
}

/**
 * Registers the ack wait, runs `send` (uploads, encryption, the write), then waits up to `timeoutMs` from the moment
 * `send` finished. On a send failure the wait is dropped.
 */
export async function sendAndAwaitAck<T>(
  ws: AckEmitter,
  id: string,
  timeoutMs: number,
  send: () => Promise<T>,
  closed?: AbortSignal,
): Promise<T> {
  const ack = waitForAck(ws, id, timeoutMs, closed, true)
  let result: T
  try {
    result = await send()
  } catch (err) {
    ack.cancel()
    // a query Baileys makes on the way (devices, sessions, group metadata) got no answer in its own time
    if (isQueryTimeout(err)) throw new GatewayError('PLATFORM_TIMEOUT')
    // Cluster mode: a write refused because the lease moved says "moving, nothing ran", which a client and a
    // forwarding node send again. Inside a send, Baileys defers every key write to the commit that follows the
    // stanza's write, so a refused one means the message may be out: telling the client to send it again would
    // deliver it twice (a node frozen between the two, woken past its lease).
    if (err instanceof GatewayError && err.code === 'SESSION_MOVING') throw new GatewayError('PLATFORM_CONNECTION_LOST')
    throw err
  }
  ack.arm()
  await observeAck(ack.promise)
  return result
}
