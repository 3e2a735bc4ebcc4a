/**
 * Sends and presence (src/platform/baileys/link/messages.ts) on a fake socket: the address used, acks and their
 * errors, typing updates, and a socket that ends under a send.
 */
import { describe, expect, it } from 'vitest'
import { closeEvents, errorOf, harness } from '../../../../support/fakes/baileys-link-harness.js'
import { waitFor } from '../../../../support/wait-for.js'

describe('baileys link: sending', () => {
  it('sends text to the LID when one is known and resolves after the ack with the forced id', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.lidByPn.set('5511999990000@s.whatsapp.net', '777@lid')
    const { messageId } = await h.link.sendMessage(
      { kind: 'phone', phone: '5511999990000' },
      { type: 'text', text: 'hi' },
    )
    expect(h.sock.sent).toHaveLength(1)
    expect(h.sock.sent[0]).toMatchObject({
      jid: '777@lid',
      content: { text: 'hi', linkPreview: null },
      opts: { messageId },
    })
    const second = await h.link.sendMessage({ kind: 'phone', phone: '5533' }, { type: 'text', text: 'x' })
    expect(h.sock.sent[1]?.jid).toBe('5533@s.whatsapp.net')
    expect(second.messageId).not.toBe(messageId)
  })

  it('a rejected ack fails the send with the platform error code; no ack times out', async () => {
    const h = await harness({ env: { ACK_TIMEOUT_MS: '200' } })
    h.sock.open()
    h.sock.ackAttrs = { error: '463' }
    const rejected = await errorOf(h.link.sendMessage({ kind: 'group', jid: '1@g.us' }, { type: 'text', text: 'x' }))
    expect([rejected.code, rejected.platformCode, rejected.message]).toEqual([
      'PLATFORM_REJECTED',
      '463',
      'the platform rejected the message (error 463)',
    ])
    h.sock.ackAttrs = null
    expect(
      (await errorOf(h.link.sendMessage({ kind: 'group', jid: '1@g.us' }, { type: 'text', text: 'x' }))).code,
    ).toBe('PLATFORM_TIMEOUT')
  })

  it('presence goes to the phone JID or group', async () => {
    const h = await harness()
    h.sock.open()
    await h.link.sendTyping({ kind: 'phone', phone: '5511' }, 'recording')
    await h.link.sendTyping({ kind: 'group', jid: '1@g.us' }, 'paused')
    expect(h.sock.presence).toEqual([
      ['recording', '5511@s.whatsapp.net'],
      ['paused', '1@g.us'],
    ])
  })

  it('typing to a phone goes to the same address as messages: the LID when one is known', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.lidByPn.set('5511999990000@s.whatsapp.net', '777@lid')
    await h.link.sendTyping({ kind: 'phone', phone: '5511999990000' }, 'composing')
    expect(h.sock.presence).toEqual([['composing', '777@lid']])
  })

  it('a socket that closes under a typing update answers session not connected, not a 500', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.sendPresenceUpdate = async () => {
      throw Object.assign(new Error('Connection Closed'), { output: { statusCode: 428 } })
    }
    await expect(h.link.sendTyping({ kind: 'phone', phone: '5511' }, 'composing')).rejects.toMatchObject({
      code: 'SESSION_NOT_CONNECTED',
    })
  })
})

describe('baileys link: socket ends during a send', () => {
  it('a pending send fails at once, saying it may have been delivered', async () => {
    const h = await harness({ env: { ACK_TIMEOUT_MS: '60000' } })
    h.sock.open()
    h.sock.ackAttrs = null
    const pending = errorOf(h.link.sendMessage({ kind: 'group', jid: '1@g.us' }, { type: 'text', text: 'x' }))
    await waitFor('send', () => h.sock.sent.length > 0 || undefined, 5_000, 10)
    void h.sock.end(Object.assign(new Error('Connection Closed'), { output: { statusCode: 428 } }))
    expect((await pending).code).toBe('PLATFORM_CONNECTION_LOST')
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    expect(closeEvents(h)[0]?.[1]).toBe('connection-lost')
  })
})
