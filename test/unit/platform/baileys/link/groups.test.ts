/**
 * Groups and pictures (src/platform/baileys/link/groups.ts) on a fake socket: pictures fetched once per TTL, members
 * from the stored address book, the own picture.
 */
import { describe, expect, it } from 'vitest'
import { errorOf, harness } from '../../../../support/fakes/baileys-link-harness.js'

describe('baileys link: groups and channels', () => {
  it('lists groups with pictures fetched once per TTL', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.groups = {
      '1@g.us': { id: '1@g.us', subject: 'One', creation: 1_700_000_000, participants: [] },
      'nopic@g.us': { id: 'nopic@g.us', subject: 'Two', participants: [] },
    }
    const first = await h.link.listGroups()
    expect(first).toEqual([
      {
        id: '1@g.us',
        name: 'One',
        description: '',
        picture: 'https://pps.test/1.jpg',
        created: new Date(1_700_000_000_000).toISOString(),
      },
      { id: 'nopic@g.us', name: 'Two', description: '', picture: '', created: null },
    ])
    await h.link.listGroups()
    expect(h.sock.pictureCalls.sort()).toEqual(['1@g.us', 'nopic@g.us'])
    expect((await errorOf(h.link.getGroup('404@g.us'))).code).toBe('GROUP_NOT_FOUND')
  })

  it('group members use the stored address book', async () => {
    const h = await harness({ contacts: [{ id: '5511@s.whatsapp.net', name: 'Ana' }] })
    h.sock.open()
    h.sock.groups = {
      '1@g.us': { id: '1@g.us', subject: 'One', participants: [{ id: '5511@s.whatsapp.net' }, { id: '9@lid' }] },
    }
    expect(await h.link.listGroupMembers('1@g.us')).toEqual([
      { id: '5511@s.whatsapp.net', name: 'Ana', phone: '5511' },
      { id: '9@lid', name: '', phone: '' },
    ])
  })

  it('own picture, and empty when there is none', async () => {
    const h = await harness()
    h.sock.open()
    expect(await h.link.ownPicture()).toBe('https://pps.test/5500000000000.jpg')
    h.sock.open({ id: 'nopic:1@s.whatsapp.net', lid: '1@lid' })
    expect(await h.link.ownPicture()).toBe('')
  })
})
