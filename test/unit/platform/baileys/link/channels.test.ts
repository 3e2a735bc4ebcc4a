/**
 * Channels (src/platform/baileys/link/channels.ts) on a fake socket: history through the invite's metadata and the
 * raw messages IQ, the list from the configured mex query.
 */
import { proto, type BinaryNode } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { errorOf, harness } from '../../../../support/fakes/baileys-link-harness.js'

describe('baileys link: groups and channels', () => {
  const mexAnswer = (data: unknown): BinaryNode => ({
    tag: 'iq',
    attrs: {},
    content: [{ tag: 'result', attrs: {}, content: Buffer.from(JSON.stringify({ data })) }],
  })

  it('channel history: metadata for the invite, raw messages IQ with before, mapped page', async () => {
    const h = await harness()
    h.sock.open()
    const asked: BinaryNode[] = []
    h.sock.onQuery = node => {
      asked.push(node)
      if (node.attrs.xmlns === 'w:mex') {
        const vars = JSON.parse(String((node.content as BinaryNode[])[0]?.content)).variables
        return mexAnswer({
          xwa2_newsletter:
            vars.input.key === '1@newsletter' ? { id: '1@newsletter', thread_metadata: { invite: 'INV' } } : null,
        })
      }
      const msg = (serverId: number, m: proto.IMessage): BinaryNode => ({
        tag: 'message',
        attrs: { id: `M${serverId}`, server_id: String(serverId), t: '1790000000', type: 'text' },
        content: [{ tag: 'plaintext', attrs: {}, content: proto.Message.encode(proto.Message.fromObject(m)).finish() }],
      })
      return {
        tag: 'iq',
        attrs: {},
        content: [
          { tag: 'messages', attrs: {}, content: [msg(10, { conversation: 'old' }), msg(11, { conversation: 'new' })] },
        ],
      }
    }
    const page = await h.link.listChannelMessages('1@newsletter', 50)
    expect(page.before).toBe(0)
    expect(page.docs.map(d => [d.serverId, d.text, d.url])).toEqual([
      [11, 'new', 'https://whatsapp.com/channel/INV/11'],
      [10, 'old', 'https://whatsapp.com/channel/INV/10'],
    ])
    const messagesIq = asked.find(n => n.attrs.xmlns === 'newsletter')
    expect((messagesIq?.content as BinaryNode[] | undefined)?.[0]?.attrs).toEqual({
      type: 'jid',
      jid: '1@newsletter',
      count: '100',
      before: '50',
    })
    expect((await errorOf(h.link.listChannelMessages('2@newsletter'))).code).toBe('CHANNEL_NOT_FOUND')
  })

  it('lists channels from the configured mex query; no answer is a timeout', async () => {
    const h = await harness({ env: { CHANNEL_LIST_QUERY_ID: '42' } })
    h.sock.open()
    h.sock.onQuery = node => {
      const q = (node.content as BinaryNode[])[0]
      if (q?.attrs.query_id !== '42') return undefined
      return mexAnswer({
        xwa2_newsletter_subscribed: [
          {
            id: '1@newsletter',
            thread_metadata: { name: { text: 'Mine' }, creation_time: '100' },
            viewer_metadata: { role: 'OWNER' },
          },
        ],
      })
    }
    expect(await h.link.listChannels()).toEqual([
      { id: '1@newsletter', name: 'Mine', picture: '', isOwner: true, created: new Date(100_000).toISOString() },
    ])
    h.sock.onQuery = () => undefined
    expect((await errorOf(h.link.listChannels())).code).toBe('PLATFORM_TIMEOUT')
  })

  it('names the refused query id, with the platform code when it gave one', async () => {
    const h = await harness({ env: { CHANNEL_LIST_QUERY_ID: '42' } })
    h.sock.open()
    const mexErrors = (errors: unknown[]): BinaryNode => ({
      tag: 'iq',
      attrs: {},
      content: [{ tag: 'result', attrs: {}, content: Buffer.from(JSON.stringify({ errors })) }],
    })
    h.sock.onQuery = () => mexErrors([{ message: 'unknown query', extensions: { error_code: 400 } }])
    const coded = await errorOf(h.link.listChannels())
    expect([coded.code, coded.platformCode, coded.message]).toEqual([
      'CHANNEL_LIST_REFUSED',
      '400',
      'the platform refused the channel list query 42 (error 400); the id may be outdated, set CHANNEL_LIST_QUERY_ID',
    ])
    h.sock.onQuery = () => mexErrors([{ message: 'unknown query' }])
    const bare = await errorOf(h.link.listChannels())
    expect([bare.code, bare.platformCode, bare.message]).toEqual([
      'CHANNEL_LIST_REFUSED_NO_CODE',
      undefined,
      'the platform refused the channel list query 42; the id may be outdated, set CHANNEL_LIST_QUERY_ID',
    ])
  })
})
