import { getBinaryNodeChild, getBinaryNodeChildren, S_WHATSAPP_NET } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import type { PresenceEvent } from '../../../src/sandbox/types.js'
import { getJson } from '../../support/system/baileys-client.js'
import { waitFor } from '../../support/wait-for.js'
import { ALICE, BOB, CAROL, GROUP, sandboxWorld } from '../../support/system/sandbox-world.js'

describe('sandbox: groups, status, presence, profile, privacy, contacts', () => {
  const world = sandboxWorld()

  it('shares the address book through app-state contact mutations', async () => {
    const contacts = world.alice.contacts
    const bob = await waitFor(
      'Bob contact',
      () => contacts.find(c => c.id === `${BOB}@s.whatsapp.net` && c.name),
      30_000,
      100,
    )
    expect(bob.name).toBe('Bob Builder')
    expect(bob.lid).toBe(world.sandbox.account(BOB)?.lidJid)
    expect(contacts.some(c => c.id === `${CAROL}@s.whatsapp.net` && c.name === 'Carol')).toBe(true)
  })

  it('an account without syncContacts never shares its address book', async () => {
    world.sandbox.setWorld({ accounts: [{ phone: BOB, contacts: [{ phone: ALICE, name: 'Alice A' }] }] })
    const bob = await world.login(BOB)
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
    const groups = await world.alice.sock.groupFetchAllParticipating()
    expect(Object.keys(groups)).toEqual([GROUP])
    const meta = await world.alice.sock.groupMetadata(GROUP)
    expect(meta.subject).toBe('Team')
    expect(meta.desc).toBe('the team')
    expect(meta.participants).toHaveLength(3)
    expect(meta.participants.filter(p => p.phoneNumber)).toHaveLength(2)
    await expect(world.alice.sock.groupMetadata('120363999999999999@g.us')).rejects.toThrow()
  })

  it('every participant phone decrypts a group message (sender keys)', async () => {
    const first = await world.alice.sock.sendMessage(GROUP, { text: 'hi team' })
    const second = await world.alice.sock.sendMessage(GROUP, { text: 'again' })
    for (const phone of [BOB, CAROL]) {
      const inbox = await waitFor(
        `group messages for ${phone}`,
        async () => {
          const list = await world.inboxOf(phone)
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
    world.sandbox.setWorld({ accounts: [{ phone: BOB, contacts: [{ phone: ALICE, name: 'Alice A' }] }] })
    const sent = await world.alice.sock.sendMessage(
      'status@broadcast',
      { text: 'my status' },
      { statusJidList: [`${BOB}@s.whatsapp.net`, `${CAROL}@s.whatsapp.net`], backgroundColor: '#075E54' },
    )
    for (const [phone, visible] of [
      [BOB, true],
      [CAROL, false],
    ] as const) {
      const got = await world.arrived(phone, sent?.key.id)
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
    await world.alice.sock.sendPresenceUpdate('composing', `${BOB}@s.whatsapp.net`)
    await world.alice.sock.sendPresenceUpdate('recording', `${BOB}@s.whatsapp.net`)
    const events = await waitFor(
      'presence events',
      async () => {
        const list = (await getJson<{ events: PresenceEvent[] }>(`${world.sandbox.url}/accounts/${BOB}/presence`))
          .events
        return list.length >= 2 ? list : undefined
      },
      10_000,
      100,
    )
    expect(events.map(e => e.state)).toEqual(['composing', 'recording'])
    expect(events[0]).toMatchObject({ from: ALICE, chat: ALICE })
  })

  it('answers profile pictures from the world (URL without @) and 404 otherwise', async () => {
    const url = await world.alice.sock.profilePictureUrl(`${BOB}@s.whatsapp.net`)
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/pp\//)
    const res = await fetch(url ?? '').catch(() => undefined) // plain fetch does not trust the sandbox CA
    expect(res).toBeUndefined()
    await expect(world.alice.sock.profilePictureUrl(`${CAROL}@s.whatsapp.net`)).rejects.toThrow()
  })

  it('answers privacy settings and status privacy from the world', async () => {
    const settings = await world.alice.sock.fetchPrivacySettings(true)
    expect(settings.status).toBe('blacklist')
    const result = await world.alice.sock.query({
      tag: 'iq',
      attrs: { to: S_WHATSAPP_NET, xmlns: 'status', type: 'get' },
      content: [{ tag: 'privacy', attrs: {} }],
    })
    const list = getBinaryNodeChild(getBinaryNodeChild(result, 'privacy'), 'list')
    expect(list?.attrs.type).toBe('blacklist')
    expect(getBinaryNodeChildren(list, 'user').map(u => u.attrs.jid)).toEqual([`${CAROL}@s.whatsapp.net`])
  })
})
