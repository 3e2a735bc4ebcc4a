import { createHash } from 'node:crypto'
import https from 'node:https'
import {
  encodeBase64EncodedStringForUpload,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  proto,
  S_WHATSAPP_NET,
} from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js'
import type { InboxMessage, PresenceEvent } from '../../../src/sandbox/types.js'
import { fetchTrust, getJson, pairAndLogin, type TestSocket } from '../../support/system/baileys-client.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002'
const CAROL = '15550000003'
const GROUP = '120363000000000001@g.us'
const CHANNEL = '120363000000000009@newsletter'

describe('sandbox: groups, status, presence, profile, privacy, channels, contacts', () => {
  let sandbox: Sandbox
  let alice: TestSocket
  let caCert = ''

  const inboxOf = async (phone: string): Promise<InboxMessage[]> =>
    (await getJson<{ messages: InboxMessage[] }>(`${sandbox.url}/accounts/${phone}/inbox`)).messages

  beforeAll(async () => {
    sandbox = await createSandbox({
      port: 0,
      world: {
        accounts: [
          {
            phone: ALICE,
            name: 'Alice',
            picture: true,
            syncContacts: true,
            contacts: [
              { phone: BOB, name: 'Bob Builder' },
              { phone: CAROL, name: 'Carol' },
            ],
            statusPrivacy: { setting: 'blacklist', list: [CAROL] },
          },
          { phone: BOB, name: 'Bob', picture: true },
        ],
        groups: [
          {
            id: GROUP,
            name: 'Team',
            description: 'the team',
            created: '2025-01-01T00:00:00Z',
            participants: [{ phone: ALICE, admin: 'superadmin' }, { phone: BOB }, { phone: CAROL, hidePhone: true }],
          },
        ],
        channels: [
          {
            id: CHANNEL,
            name: 'News',
            created: '2025-01-01T00:00:00Z',
            owner: ALICE,
            followers: [BOB],
            messages: [
              { type: 'text', text: 'hello' },
              { type: 'image', caption: 'pic' },
              { type: 'poll', name: 'Q?', options: ['a', 'b'] },
            ],
          },
        ],
      },
    })
    const trust = await fetchTrust(sandbox.url)
    caCert = trust.caCert
    const auth = await pairAndLogin(sandbox.url, trust, ALICE)
    alice = auth.socket
  })
  afterAll(async () => {
    alice?.end()
    await sandbox.close()
  })

  it('shares the address book through app-state contact mutations', async () => {
    const contacts = alice.contacts
    const bob = await waitFor(
      'Bob contact',
      () => contacts.find(c => c.id === `${BOB}@s.whatsapp.net` && c.name),
      30_000,
      100,
    )
    expect(bob.name).toBe('Bob Builder')
    expect(bob.lid).toBe(sandbox.account(BOB)?.lidJid)
    expect(contacts.some(c => c.id === `${CAROL}@s.whatsapp.net` && c.name === 'Carol')).toBe(true)
  })

  it('an account without syncContacts never shares its address book', async () => {
    const trust = await fetchTrust(sandbox.url)
    sandbox.setWorld({ accounts: [{ phone: BOB, contacts: [{ phone: ALICE, name: 'Alice A' }] }] })
    const bob = await pairAndLogin(sandbox.url, trust, BOB)
    try {
      // accountSyncCounter increments when Baileys has finished the initial history + app-state sync.
      await waitFor(
        'initial sync done',
        () => ((bob.auth.state.creds.accountSyncCounter ?? 0) >= 1 ? true : undefined),
        30_000,
        100,
      )
      expect(bob.socket.contacts.filter(c => c.name)).toEqual([])
    } finally {
      bob.socket.end()
    }
  })

  it('lists participating groups and group metadata from the world', async () => {
    const groups = await alice.sock.groupFetchAllParticipating()
    expect(Object.keys(groups)).toEqual([GROUP])
    const meta = await alice.sock.groupMetadata(GROUP)
    expect(meta.subject).toBe('Team')
    expect(meta.desc).toBe('the team')
    expect(meta.participants).toHaveLength(3)
    expect(meta.participants.filter(p => p.phoneNumber)).toHaveLength(2)
    await expect(alice.sock.groupMetadata('120363999999999999@g.us')).rejects.toThrow()
  })

  it('every participant phone decrypts a group message (sender keys)', async () => {
    const first = await alice.sock.sendMessage(GROUP, { text: 'hi team' })
    const second = await alice.sock.sendMessage(GROUP, { text: 'again' })
    for (const phone of [BOB, CAROL]) {
      const inbox = await waitFor(
        `group messages for ${phone}`,
        async () => {
          const list = await inboxOf(phone)
          return list.some(m => m.id === second?.key.id) ? list : undefined
        },
        30_000,
        100,
      )
      expect(inbox.find(m => m.id === first?.key.id)).toMatchObject({
        chat: GROUP,
        from: ALICE,
        text: 'hi team',
        status: false,
      })
      expect(inbox.find(m => m.id === second?.key.id)?.text).toBe('again')
    }
  })

  it('status recipients decrypt a text status with its background colour; only those who saved the sender see it', async () => {
    sandbox.setWorld({ accounts: [{ phone: BOB, contacts: [{ phone: ALICE, name: 'Alice A' }] }] })
    const sent = await alice.sock.sendMessage(
      'status@broadcast',
      { text: 'my status' },
      { statusJidList: [`${BOB}@s.whatsapp.net`, `${CAROL}@s.whatsapp.net`], backgroundColor: '#075E54' },
    )
    for (const [phone, visible] of [
      [BOB, true],
      [CAROL, false],
    ] as const) {
      const got = await waitFor(
        `status for ${phone}`,
        async () => (await inboxOf(phone)).find(m => m.id === sent?.key.id),
        30_000,
        100,
      )
      expect(got).toMatchObject({
        chat: 'status@broadcast',
        from: ALICE,
        type: 'text',
        text: 'my status',
        status: true,
        backgroundColor: '#075E54',
        visible,
      })
    }
  })

  it('records chat states as presence events', async () => {
    await alice.sock.sendPresenceUpdate('composing', `${BOB}@s.whatsapp.net`)
    await alice.sock.sendPresenceUpdate('recording', `${BOB}@s.whatsapp.net`)
    const events = await waitFor(
      'presence events',
      async () => {
        const list = (await getJson<{ events: PresenceEvent[] }>(`${sandbox.url}/accounts/${BOB}/presence`)).events
        return list.length >= 2 ? list : undefined
      },
      10_000,
      100,
    )
    expect(events.map(e => e.state)).toEqual(['composing', 'recording'])
    expect(events[0]).toMatchObject({ from: ALICE, chat: ALICE })
  })

  it('answers profile pictures from the world (URL without @) and 404 otherwise', async () => {
    const url = await alice.sock.profilePictureUrl(`${BOB}@s.whatsapp.net`)
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/pp\//)
    const res = await fetch(url ?? '').catch(() => undefined) // plain fetch does not trust the sandbox CA
    expect(res).toBeUndefined()
    await expect(alice.sock.profilePictureUrl(`${CAROL}@s.whatsapp.net`)).rejects.toThrow()
  })

  it('answers privacy settings and status privacy from the world', async () => {
    const settings = await alice.sock.fetchPrivacySettings(true)
    expect(settings.status).toBe('blacklist')
    const result = await alice.sock.query({
      tag: 'iq',
      attrs: { to: S_WHATSAPP_NET, xmlns: 'status', type: 'get' },
      content: [{ tag: 'privacy', attrs: {} }],
    })
    const list = getBinaryNodeChild(getBinaryNodeChild(result, 'privacy'), 'list')
    expect(list?.attrs.type).toBe('blacklist')
    expect(getBinaryNodeChildren(list, 'user').map(u => u.attrs.jid)).toEqual([`${CAROL}@s.whatsapp.net`])
  })

  it('serves channels: subscribed list, metadata and history with a before cursor', async () => {
    const mex = await alice.sock.query({
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
    const meta = await alice.sock.newsletterMetadata('jid', CHANNEL)
    expect((meta as unknown as { thread_metadata: { name: { text: string } } }).thread_metadata.name.text).toBe('News')
    const page = await alice.sock.query({
      tag: 'iq',
      attrs: { to: S_WHATSAPP_NET, xmlns: 'newsletter', type: 'get' },
      content: [{ tag: 'messages', attrs: { type: 'jid', jid: CHANNEL, count: '2', before: '3' } }],
    })
    const messages = getBinaryNodeChildren(getBinaryNodeChild(page, 'messages'), 'message')
    expect(messages.map(m => m.attrs.server_id)).toEqual(['1', '2'])
    const rest = await getJson<{ messages: { serverId: number; type: string }[] }>(
      `${sandbox.url}/channels/${CHANNEL}/messages`,
    )
    expect(rest.messages.map(m => m.type)).toEqual(['text', 'image', 'poll'])
  })

  it('accepts channel posts from the owner, text and media (upload + media_id), with server ids', async () => {
    await alice.sock.sendMessage(CHANNEL, { text: 'posted text' })
    const bytes = Buffer.from('pretend these are jpeg bytes')
    const sha = createHash('sha256').update(bytes).digest()
    const token = encodeBase64EncodedStringForUpload(sha.toString('base64'))
    const conn = await alice.sock.refreshMediaConn(false)
    const uploaded = await new Promise<{ url: string; direct_path: string; handle: string }>((resolve, reject) => {
      const req = https.request(
        `https://${conn.hosts[0]?.hostname}/newsletter/newsletter-image/${token}?auth=${encodeURIComponent(conn.auth)}&token=${token}`,
        {
          method: 'POST',
          ca: caCert,
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
    const ack = await alice.sock.query(
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
    }>(`${sandbox.url}/channels/${CHANNEL}/messages`)
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
