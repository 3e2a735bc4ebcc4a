/**
 * @module platform/baileys/mapping/contact-events
 * Baileys contact payloads (`contacts.upsert`, `contacts.update`, `messaging-history.set`) → StoredContact rows.
 * Only entries with a name are kept: the address book is "contacts with a non-empty name" (BAILEYS-MAPPING §3.5);
 * push names (`notify`) are not address-book names.
 */
import type { Contact } from '@whiskeysockets/baileys'
import type { StoredContact } from '../../../storage/types.js'
import { isLidJid, phoneOfJid } from './jids.js'

export function toStoredContacts(entries: Array<Partial<Contact>>): StoredContact[] {
  const out: StoredContact[] = []
  for (const e of entries) {
    const name = typeof e.name === 'string' ? e.name.trim() : ''
    if (!e.id || !name) continue
    const row: StoredContact = { id: e.id, name }
    const lid = e.lid || (isLidJid(e.id) ? e.id : undefined)
    if (lid) row.lid = lid
    const phone = phoneOfJid(e.id) || phoneOfJid(e.phoneNumber)
    if (phone) row.phone = phone
    out.push(row)
  }
  return out
}
