import { EventEmitter } from 'node:events'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../src/protocol/errors.js'
import { ACK_EVENT, sendAndAwaitAck } from '../../../../src/platform/baileys/ack.js'

const ack = (id: string, attrs: Record<string, string> = {}): BinaryNode => ({
  tag: 'ack',
  attrs: { class: 'message', id, ...attrs },
})

describe('waiting for the server ack', () => {
  it('resolves on the matching ack, ignoring others, and detaches', async () => {
    const ws = new EventEmitter()
    const result = await sendAndAwaitAck(ws, 'A1', 10_000, async () => {
      // the ack may arrive before send() resolves: the listener must already be there
      ws.emit(ACK_EVENT, ack('OTHER', { error: '500' }))
      ws.emit(ACK_EVENT, ack('A1'))
      return 'sent'
    })
    expect(result).toBe('sent')
    expect(ws.listenerCount(ACK_EVENT)).toBe(0)
  })

  it('an error attribute rejects with PLATFORM_REJECTED and the code', async () => {
    const ws = new EventEmitter()
    const err = await sendAndAwaitAck(ws, 'A2', 10_000, async () => {
      setTimeout(() => ws.emit(ACK_EVENT, ack('A2', { error: '463' })), 10)
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GatewayError)
    expect((err as GatewayError).code).toBe('PLATFORM_REJECTED')
    expect((err as GatewayError).message).toBe('the platform rejected the message (error 463)')
  })

  it('no ack in time → PLATFORM_TIMEOUT', async () => {
    const ws = new EventEmitter()
    const err = await sendAndAwaitAck(ws, 'A3', 50, async () => undefined).catch((e: unknown) => e)
    expect((err as GatewayError).code).toBe('PLATFORM_TIMEOUT')
    expect(ws.listenerCount(ACK_EVENT)).toBe(0)
  })

  it('a failing send detaches and rethrows the send error', async () => {
    const ws = new EventEmitter()
    await expect(
      sendAndAwaitAck(ws, 'A4', 10_000, async () => {
        throw new Error('socket gone')
      }),
    ).rejects.toThrow('socket gone')
    expect(ws.listenerCount(ACK_EVENT)).toBe(0)
  })
})

describe('socket closing while waiting', () => {
  it('rejects at once with PLATFORM_CONNECTION_LOST (the stanza may be out) and detaches', async () => {
    const ws = new EventEmitter()
    const ended = new AbortController()
    const err = await sendAndAwaitAck(
      ws,
      'A5',
      60_000,
      async () => {
        setTimeout(() => ended.abort(), 10)
      },
      ended.signal,
    ).then(
      () => undefined,
      (e: unknown) => e as GatewayError,
    )
    expect(err?.code).toBe('PLATFORM_CONNECTION_LOST')
    expect(ws.listenerCount(ACK_EVENT)).toBe(0)
  })
})
