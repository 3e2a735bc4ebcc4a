/**
 * @module platform/baileys/mapping/status-recipients
 * Who receives a status (BAILEYS-MAPPING §3.4, whatsmeow `getStatusBroadcastRecipients`): the default list of the
 * `<iq xmlns='status'><privacy/>` answer decides. Pure: parsing the answer and picking recipients.
 */
import { getBinaryNodeChild, getBinaryNodeChildren, type BinaryNode } from '@whiskeysockets/baileys'
import { GatewayError } from '../../../protocol/errors.js'
import type { StoredContact } from '../../../storage/types.js'
import { bareJid, phoneJid } from './jids.js'

export type StatusPrivacyType = 'contacts' | 'blacklist' | 'whitelist'

export interface StatusPrivacy {
  type: StatusPrivacyType
  jids: string[]
}

/** Parses `<iq><privacy><list type default><user jid/>…</list>…</privacy></iq>`; no list → 'contacts'. */
export function parseStatusPrivacy(iq: BinaryNode | undefined | null): StatusPrivacy {
  const privacy = iq ? getBinaryNodeChild(iq, 'privacy') : undefined
  const lists = privacy ? getBinaryNodeChildren(privacy, 'list') : []
  const chosen = lists.find(l => l.attrs.default === 'true') ?? lists[0]
  const raw = chosen?.attrs.type
  const type: StatusPrivacyType = raw === 'whitelist' || raw === 'blacklist' ? raw : 'contacts'
  const jids = chosen
    ? getBinaryNodeChildren(chosen, 'user')
        .map(u => u.attrs.jid)
        .filter((j): j is string => !!j)
    : []
  return { type, jids }
}

/**
 * Recipients for a status, own JID always included (else the status does not show on the sender's phone).
 * Throws STATUS_ONLY_SHARE_EMPTY / CONTACTS_NOT_SYNCED per the spec.
 */
export function pickStatusRecipients(privacy: StatusPrivacy, contacts: StoredContact[], ownJid: string): string[] {
  let recipients: string[]
  if (privacy.type === 'whitelist') {
    recipients = privacy.jids.map(bareJid)
    if (recipients.length === 0) throw new GatewayError('STATUS_ONLY_SHARE_EMPTY')
  } else {
    const addressBook = contacts.filter(c => c.name)
    if (addressBook.length === 0) throw new GatewayError('CONTACTS_NOT_SYNCED')
    const excluded = new Set(privacy.type === 'blacklist' ? privacy.jids.map(bareJid) : [])
    recipients = addressBook
      .filter(
        c =>
          !excluded.has(bareJid(c.id)) &&
          !(c.lid && excluded.has(bareJid(c.lid))) &&
          !(c.phone && excluded.has(phoneJid(c.phone))),
      )
      .map(c => bareJid(c.id))
  }
  const own = bareJid(ownJid)
  return [...new Set([...recipients, own])]
}

/** Splits recipients into relay batches. */
export function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
