import { describe, expect, it } from 'vitest'
import {
  addressBookIndex,
  mapGroup,
  mapGroupMembers,
} from '../../../../../src/platform/baileys/mapping/group-mapping.js'

describe('group mapping', () => {
  it('maps metadata to the spec Group', () => {
    expect(mapGroup({ id: '1@g.us', subject: 'Team', desc: 'About', creation: 1_700_000_000 }, 'https://pic')).toEqual({
      id: '1@g.us',
      name: 'Team',
      description: 'About',
      picture: 'https://pic',
      created: new Date(1_700_000_000_000).toISOString(),
    })
    expect(mapGroup({ id: '2@g.us', subject: '' }, '')).toEqual({
      id: '2@g.us',
      name: '',
      description: '',
      picture: '',
      created: null,
    })
  })

  it('members: the phone JID whenever the number is known (participant, LID mapping, address book), else the LID', () => {
    const book = addressBookIndex([
      { id: '5511111111111@s.whatsapp.net', name: 'Ana', phone: '5511111111111' },
      { id: '5522222222222@s.whatsapp.net', name: 'Bruno', phone: '5522222222222', lid: '222@lid' },
      { id: '5599999999999@s.whatsapp.net', name: '' }, // push-name only: not address book
    ])
    const members = mapGroupMembers(
      [
        { id: '5511111111111@s.whatsapp.net' }, // PN, in address book
        { id: '5533333333333@s.whatsapp.net' }, // PN, unknown → number
        { id: '222@lid' }, // LID, in the book by lid
        { id: '444@lid' }, // LID, local mapping knows the PN (with device)
        { id: '555@lid', phoneNumber: '5555555555555@s.whatsapp.net' }, // server sent the phone
        { id: '666@lid' }, // hidden and unknown
        { id: '5599999999999@s.whatsapp.net' },
      ],
      book,
      lid => (lid === '444@lid' ? '5544444444444:0@s.whatsapp.net' : undefined),
    )
    expect(members).toEqual([
      { id: '5511111111111@s.whatsapp.net', name: 'Ana', phone: '5511111111111' },
      { id: '5533333333333@s.whatsapp.net', name: '5533333333333', phone: '5533333333333' },
      // hidden by the group, but the account's address book links the LID to a saved contact
      { id: '5522222222222@s.whatsapp.net', name: 'Bruno', phone: '5522222222222' },
      { id: '5544444444444@s.whatsapp.net', name: '5544444444444', phone: '5544444444444' },
      { id: '5555555555555@s.whatsapp.net', name: '5555555555555', phone: '5555555555555' },
      { id: '666@lid', name: '', phone: '' },
      { id: '5599999999999@s.whatsapp.net', name: '5599999999999', phone: '5599999999999' },
    ])
  })

  it('a LID whose phone is known through the mapping gets the address-book name', () => {
    const book = addressBookIndex([{ id: '5577777777777@s.whatsapp.net', name: 'Carla' }])
    expect(mapGroupMembers([{ id: '777@lid' }], book, () => '5577777777777@s.whatsapp.net')).toEqual([
      { id: '5577777777777@s.whatsapp.net', name: 'Carla', phone: '5577777777777' },
    ])
  })

  it('an address-book contact stored under its LID alone gives its number from its phone field', () => {
    const book = addressBookIndex([{ id: '888@lid', name: 'Dora', lid: '888@lid', phone: '5588888888888' }])
    expect(mapGroupMembers([{ id: '888@lid' }, { id: '999@lid' }], book, () => undefined)).toEqual([
      { id: '5588888888888@s.whatsapp.net', name: 'Dora', phone: '5588888888888' },
      { id: '999@lid', name: '', phone: '' },
    ])
  })
})
