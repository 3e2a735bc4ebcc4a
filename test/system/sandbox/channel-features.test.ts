/**
 * The sandbox's channels against an unmodified Baileys client (Alice's, who owns one): the subscribed list, metadata
 * and history with a before cursor, and the owner's posts, text and media (upload and media_id), with server ids.
 */
import { createHash } from 'node:crypto'
import https from 'node:https'
import {
  encodeBase64EncodedStringForUpload,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  proto,
  S_WHATSAPP_NET,
} from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { getJson } from '../../support/system/baileys-client.js'
import { CHANNEL, sandboxWorld } from '../../support/system/sandbox-world.js'

describe('sandbox: channels', () => {
  const world = sandboxWorld()

  it('serves channels: subscribed list, metadata and history with a before cursor', async () => {
    const mex = await world.alice.sock.query({
      tag: 'iq',
      attrs: { to: S_WHATSAPP_NET, xmlns: 'w:mex', type: 'get' },
      content: [
        {
          tag: 'query',
          attrs: { query_id: '6388546374527196' },
          content: Buffer.from(JSON.stringify({ variables: {} })),
        },
      ],
    })
    const data = JSON.parse(String(getBinaryNodeChild(mex, 'result')?.content)) as {
      data: { xwa2_newsletter_subscribed: { id: string; viewer_metadata: { role: string } }[] }
    }
    expect(data.data.xwa2_newsletter_subscribed.map(c => c.id)).toEqual([CHANNEL])
    expect(data.data.xwa2_newsletter_subscribed[0]?.viewer_metadata.role).toBe('OWNER')
    const meta = await world.alice.sock.newsletterMetadata('jid', CHANNEL)
    expect((meta as unknown as { thread_metadata: { name: { text: string } } }).thread_metadata.name.text).toBe('News')
    const page = await world.alice.sock.query({
      tag: 'iq',
      attrs: { to: S_WHATSAPP_NET, xmlns: 'newsletter', type: 'get' },
      content: [{ tag: 'messages', attrs: { type: 'jid', jid: CHANNEL, count: '2', before: '3' } }],
    })
    const messages = getBinaryNodeChildren(getBinaryNodeChild(page, 'messages'), 'message')
    expect(messages.map(m => m.attrs.server_id)).toEqual(['1', '2'])
    const rest = await getJson<{ messages: { serverId: number; type: string }[] }>(
      `${world.sandbox.url}/channels/${CHANNEL}/messages`,
    )
    expect(rest.messages.map(m => m.type)).toEqual(['text', 'image', 'poll'])
  })

  it('accepts channel posts from the owner, text and media (upload + media_id), with server ids', async () => {
    await world.alice.sock.sendMessage(CHANNEL, { text: 'posted text' })
    const bytes = Buffer.from('pretend these are jpeg bytes')
    const sha = createHash('sha256').update(bytes).digest()
    const token = encodeBase64EncodedStringForUpload(sha.toString('base64'))
    const conn = await world.alice.sock.refreshMediaConn(false)
    const uploaded = await new Promise<{ url: string; direct_path: string; handle: string }>((resolve, reject) => {
      const req = https.request(
        `https://${conn.hosts[0]?.hostname}/newsletter/newsletter-image/${token}?auth=${encodeURIComponent(conn.auth)}&token=${token}`,
        {
          method: 'POST',
          ca: world.trust.caCert,
          headers: { Origin: 'https://web.whatsapp.com', 'Content-Type': 'application/octet-stream' },
        },
        res => {
          let text = ''
          res.on('data', (d: Buffer) => (text += d.toString()))
          res.on('end', () => resolve(JSON.parse(text) as { url: string; direct_path: string; handle: string }))
        },
      )
      req.on('error', reject)
      req.end(bytes)
    })
    const message = proto.Message.encode({
      imageMessage: {
        url: uploaded.url,
        directPath: uploaded.direct_path,
        mimetype: 'image/jpeg',
        caption: 'chan pic',
        fileSha256: sha,
        fileLength: bytes.length,
      },
    }).finish()
    const ack = await world.alice.sock.query(
      {
        tag: 'message',
        attrs: { to: CHANNEL, id: 'SBXCHANMEDIA1', type: 'media', media_id: uploaded.handle },
        content: [{ tag: 'plaintext', attrs: { mediatype: 'image' }, content: message }],
      },
      20_000,
    )
    expect(ack?.attrs.error).toBeUndefined()
    expect(ack?.attrs.server_id).toBe('5')
    const list = await getJson<{
      messages: {
        serverId: number
        type: string
        text?: string
        caption?: string
        media?: { sha256?: string; size?: number }
      }[]
    }>(`${world.sandbox.url}/channels/${CHANNEL}/messages`)
    // toMatchObject: the control API may add fields to these records (additions-only contract)
    expect(list.messages.slice(3)).toMatchObject([
      { serverId: 4, type: 'text', text: 'posted text' },
      {
        serverId: 5,
        type: 'image',
        caption: 'chan pic',
        media: { mimetype: 'image/jpeg', size: bytes.length, sha256: sha.toString('hex') },
      },
    ])
  })
})
