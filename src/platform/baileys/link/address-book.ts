/**
 * @module platform/baileys/link/address-book
 * Keeps the session's address book (the contact store) in step with the socket: named contacts from every contact
 * event are stored, and a connection that finds the store empty asks the platform for a fresh snapshot.
 */
import type { WASocket } from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { ContactStore } from '../../../storage/types.js'
import { toStoredContacts } from '../mapping/contact-events.js'
import { withTimeout } from '../query.js'

/** Stores the named contacts of `contacts.upsert`, `contacts.update` and history sync; a failed write is logged. */
export function storeContactEvents(sock: WASocket, contacts: ContactStore, log: Logger): void {
  const store = (entries: Parameters<typeof toStoredContacts>[0]) => {
    const rows = toStoredContacts(entries)
    if (rows.length) contacts.upsert(rows).catch(err => log.warn({ err }, 'storing contacts failed'))
  }
  sock.ev.on('contacts.upsert', store)
  sock.ev.on('contacts.update', store)
  sock.ev.on('messaging-history.set', ({ contacts: entries }) => store(entries))
}

/**
 * The address book arrives only with the first app-state sync after pairing (BAILEYS-MAPPING §3.5); Baileys never
 * resyncs on later connections. When our contact table holds no address-book entry, ask for a fresh snapshot of
 * the contacts collection, so "reconnect the session" (the spec's CONTACTS_NOT_SYNCED advice) really helps.
 */
export async function resyncContactsIfEmpty(
  sock: WASocket,
  contacts: ContactStore,
  log: Logger,
  timeoutMs: number,
): Promise<void> {
  if (!((sock.authState.creds.accountSyncCounter ?? 0) > 0) || !sock.authState.creds.myAppStateKeyId) return
  if ((await contacts.all()).some(c => c.name)) return
  log.info('no address-book contacts stored: requesting a contacts snapshot')
  await sock.authState.keys.set({ 'app-state-sync-version': { critical_unblock_low: null } })
  await withTimeout(sock.resyncAppState(['critical_unblock_low'], true), timeoutMs)
}
