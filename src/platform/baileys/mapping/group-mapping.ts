/**
 * @module platform/baileys/mapping/group-mapping
 * Baileys GroupMetadata → spec Group / GroupMember (BAILEYS-MAPPING §5). Pure: the socket-side lookups (LID → PN,
 * address book) are passed in.
 */
import type { GroupMetadata } from '@whiskeysockets/baileys'
import type { Group, GroupMember } from '../../../protocol/spec-types.js'
import type { StoredContact } from '../../../storage/types.js'
import { isLidJid, phoneJid, phoneOfJid } from './jids.js'

export function mapGroup(meta: Pick<GroupMetadata, 'id' | 'subject' | 'desc' | 'creation'>, picture: string): Group {
  return {
    id: meta.id,
    name: meta.subject ?? '',
    description: meta.desc ?? '',
    picture,
    created: meta.creation ? new Date(meta.creation * 1000).toISOString() : null,
  }
}

/** Index of address-book contacts (non-empty name) by every JID they are known under. */
export function addressBookIndex(contacts: StoredContact[]): Map<string, StoredContact> {
  const index = new Map<string, StoredContact>()
  for (const c of contacts) {
    if (!c.name) continue
    index.set(c.id, c)
    if (c.lid) index.set(c.lid, c)
    if (c.phone) index.set(phoneJid(c.phone), c)
  }
  return index
}

export interface ParticipantLike {
  id: string
  phoneNumber?: string
  lid?: string
}

/**
 * Spec rules (§5.3): `id` is the member's phone-number JID whenever the number is known, so a client can match
 * members against its own contacts by ID; `@lid` only when the number is hidden from the account. The number comes,
 * in this order, from the participant itself (its JID or the `phone_number` the group gives), the local LID→PN
 * mapping (`pnForLid`, a PN JID possibly with device), or the account's address book linking the `@lid` to a saved
 * contact (the account already knows that number). phone = that number, '' when hidden; name = address-book name,
 * else the number, else ''.
 */
export function mapGroupMembers(
  participants: ParticipantLike[],
  addressBook: Map<string, StoredContact>,
  pnForLid: (lid: string) => string | undefined,
): GroupMember[] {
  return participants.map(p => {
    let phone = isLidJid(p.id) ? phoneOfJid(p.phoneNumber) : phoneOfJid(p.id)
    if (!phone && isLidJid(p.id)) phone = phoneOfJid(pnForLid(p.id))
    const contact =
      addressBook.get(p.id) ??
      (phone ? addressBook.get(phoneJid(phone)) : undefined) ??
      (p.lid ? addressBook.get(p.lid) : undefined)
    if (!phone && contact) phone = contact.phone || phoneOfJid(contact.id)
    return { id: phone ? phoneJid(phone) : p.id, name: contact?.name || phone || '', phone }
  })
}
