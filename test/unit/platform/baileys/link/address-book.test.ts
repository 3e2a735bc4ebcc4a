/**
 * The link's address book (src/platform/baileys/link/address-book.ts) on a fake socket: named contacts stored from
 * upserts, updates and history sync.
 */
import { describe, expect, it } from 'vitest'
import { harness } from '../../../../support/fakes/baileys-link-harness.js'
import { waitFor } from '../../../../support/wait-for.js'

describe('baileys link: lifecycle', () => {
  it('stores named contacts from upserts, updates and history sync', async () => {
    const h = await harness()
    h.sock.ev.emit('contacts.upsert', [
      { id: '5511111111111@s.whatsapp.net', name: 'Ana' },
      { id: '5522@s.whatsapp.net', notify: 'push' },
    ])
    h.sock.ev.emit('contacts.update', [{ id: '333@lid', name: 'Caio' }])
    h.sock.ev.emit('messaging-history.set', {
      contacts: [{ id: '5544444444444@s.whatsapp.net', name: 'Dora' }],
      chats: [],
      messages: [],
    })
    await waitFor('contacts', () => h.contacts.length === 3 || undefined, 5_000, 10)
    expect(h.contacts.map(c => c.name)).toEqual(['Ana', 'Caio', 'Dora'])
  })
})
