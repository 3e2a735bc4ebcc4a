/**
 * @module platform/baileys/mapping/jids
 * Small JID helpers shared by the mapping files (no socket needed).
 */
import { jidDecode } from '@whiskeysockets/baileys'

const PN_SERVER = 's.whatsapp.net'

export const phoneJid = (digits: string): string => `${digits}@${PN_SERVER}`

/** The digits of a phone-number JID (device suffix dropped), or '' for anything else. */
export function phoneOfJid(jid: string | undefined | null): string {
  if (!jid) return ''
  const decoded = jidDecode(jid)
  if (!decoded || decoded.server !== PN_SERVER) return ''
  return decoded.user
}

/** `user@server` without device / agent parts. */
export function bareJid(jid: string): string {
  const decoded = jidDecode(jid)
  return decoded ? `${decoded.user}@${decoded.server === 'c.us' ? PN_SERVER : decoded.server}` : jid
}

export const isLidJid = (jid: string | undefined): boolean => !!jid && jid.endsWith('@lid')
