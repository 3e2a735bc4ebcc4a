/**
 * Status posts (src/platform/baileys/link/status.ts) on a fake socket: one upload relayed in batches, the media work
 * in the media slot and the relays outside it, the text background, privacy errors.
 */
import type { proto } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { errorOf, harness, imageServer } from '../../../../support/fakes/baileys-link-harness.js'

const images = imageServer()

describe('baileys link: sending', () => {
  it('a status to many contacts uploads once and relays batches of 500 under one id', async () => {
    const contacts = Array.from({ length: 1200 }, (_, i) => ({ id: `55${1000000 + i}@s.whatsapp.net`, name: `c${i}` }))
    const h = await harness({ contacts })
    h.sock.open()
    h.sock.onQuery = node =>
      node.attrs.xmlns === 'status'
        ? {
            tag: 'iq',
            attrs: {},
            content: [
              { tag: 'privacy', attrs: {}, content: [{ tag: 'list', attrs: { type: 'contacts', default: 'true' } }] },
            ],
          }
        : undefined
    const { statusId } = await h.link.postStatus({
      type: 'image',
      image: { url: `${images.base}/p.jpg`, mimetype: 'image/jpeg' },
      text: 'hello',
    })
    expect(h.sock.uploads).toBe(1)
    expect(h.sock.relayed.map(r => r.opts.statusJidList?.length)).toEqual([500, 500, 201])
    expect(new Set(h.sock.relayed.map(r => r.opts.messageId))).toEqual(new Set([statusId]))
    expect(h.sock.relayed.every(r => r.jid === 'status@broadcast')).toBe(true)
    expect(h.sock.relayed[2]?.opts.statusJidList).toContain('5500000000000@s.whatsapp.net')
    const image = (h.sock.relayed[0]?.message as proto.IMessage | undefined)?.imageMessage
    expect(image?.caption).toBe('hello')
    expect(image?.mimetype).toBe('image/jpeg')
  })

  it('decodes and uploads in the media slot; asks for the media hosts and relays (each ack awaited) outside it', async () => {
    const h = await harness({ contacts: [{ id: '5511@s.whatsapp.net', name: 'A' }] })
    h.sock.open()
    h.sock.onQuery = () => ({ tag: 'iq', attrs: {}, content: [] })
    const turns: string[] = []
    let inSlot = false
    const mediaHostsAsked: boolean[] = []
    const refresh = h.sock.refreshMediaConn
    h.sock.refreshMediaConn = async () => {
      mediaHostsAsked.push(inSlot)
      return refresh()
    }
    await h.link.postStatus(
      { type: 'image', image: { url: `${images.base}/p.jpg`, mimetype: 'image/jpeg' } },
      {
        inMediaSlot: async work => {
          inSlot = true
          const result = await work().finally(() => {
            inSlot = false
          })
          turns.push(`uploads ${h.sock.uploads}, relays ${h.sock.relayed.length}`)
          return result
        },
      },
    )
    // first the recompression and thumbnail, then the upload; no relay inside either
    expect(turns).toEqual(['uploads 0, relays 0', 'uploads 1, relays 0'])
    expect(mediaHostsAsked[0]).toBe(false) // before the upload's slot (Baileys' own look-up hits its cache)
    expect(h.sock.relayed).toHaveLength(1)
  })

  it('a text status has the dark green background', async () => {
    const h = await harness({ contacts: [{ id: '5511@s.whatsapp.net', name: 'A' }] })
    h.sock.open()
    h.sock.onQuery = () => ({ tag: 'iq', attrs: {}, content: [] })
    await h.link.postStatus({ type: 'text', text: 'hey' })
    const text = (h.sock.relayed[0]?.message as proto.IMessage | undefined)?.extendedTextMessage
    expect(text?.text).toBe('hey')
    expect(text?.backgroundArgb).toBe(0xff075e54)
    expect(h.sock.relayed[0]?.opts.statusJidList).toEqual(['5511@s.whatsapp.net', '5500000000000@s.whatsapp.net'])
  })

  it('status privacy errors', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.onQuery = () => ({ tag: 'iq', attrs: {}, content: [] })
    expect((await errorOf(h.link.postStatus({ type: 'text', text: 'x' }))).code).toBe('CONTACTS_NOT_SYNCED')
    h.sock.onQuery = () => ({
      tag: 'iq',
      attrs: {},
      content: [
        { tag: 'privacy', attrs: {}, content: [{ tag: 'list', attrs: { type: 'whitelist', default: 'true' } }] },
      ],
    })
    expect((await errorOf(h.link.postStatus({ type: 'text', text: 'x' }))).code).toBe('STATUS_ONLY_SHARE_EMPTY')
    h.sock.onQuery = () => undefined
    expect((await errorOf(h.link.postStatus({ type: 'text', text: 'x' }))).code).toBe('PLATFORM_TIMEOUT')
    expect(h.sock.relayed).toHaveLength(0)
  })
})
