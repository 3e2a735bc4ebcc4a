import { describe, expect, it } from 'vitest'
import { toStoredContacts } from '../../../../../src/platform/baileys/mapping/contact-events.js'

describe('contact events', () => {
  it('keeps only named entries, with phone and lid', () => {
    expect(
      toStoredContacts([
        { id: '5511111111111@s.whatsapp.net', name: ' Ana ', lid: '111@lid' },
        { id: '222@lid', name: 'Bruno', phoneNumber: '5522222222222@s.whatsapp.net' },
        { id: '5533333333333@s.whatsapp.net', notify: 'push name only' },
        { id: '5544444444444@s.whatsapp.net', name: '' },
        { name: 'no id' },
      ]),
    ).toEqual([
      { id: '5511111111111@s.whatsapp.net', name: 'Ana', lid: '111@lid', phone: '5511111111111' },
      { id: '222@lid', name: 'Bruno', lid: '222@lid', phone: '5522222222222' },
    ])
  })
})
