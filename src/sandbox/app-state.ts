/**
 * @module sandbox/app-state
 * App-state sync as the phone does it: a per-account sync key (shared with companions in an
 * APP_STATE_SYNC_KEY_SHARE) and the `critical_unblock_low` collection holding one contact mutation per address-book
 * entry, encoded with Baileys' own encodeSyncdPatch so MACs and LT-hash are right. Accounts without
 * `syncContacts` never share the key or the contacts.
 */
import { randomBytes } from 'node:crypto'
import { encodeSyncdPatch, newLTHashState, proto } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { child, children, iqResult, node } from './nodes.js'
import type { IqHandler } from './handlers/types.js'
import type { WorldAccount } from './types.js'
import { worldAccount } from './world.js'

export interface AppStateKey {
  keyId: Buffer
  keyData: Buffer
}

export class AppStateKeys {
  readonly #keys = new Map<string, AppStateKey>()

  keyFor(phone: string): AppStateKey {
    let key = this.#keys.get(phone)
    if (!key) this.#keys.set(phone, (key = { keyId: randomBytes(6), keyData: randomBytes(32) }))
    return key
  }

  has(phone: string): boolean {
    return this.#keys.has(phone)
  }

  /** Every key handed out so far, for the sandbox state file. */
  entries(): Array<[string, AppStateKey]> {
    return [...this.#keys]
  }

  restore(entries: Array<[string, AppStateKey]>): void {
    for (const [phone, key] of entries) this.#keys.set(phone, key)
  }
}

const CONTACTS_COLLECTION = 'critical_unblock_low'

/** One encoded SyncdPatch per contact, versions 1..n. */
async function contactPatches(
  key: AppStateKey,
  account: WorldAccount,
  lidOf: (phone: string) => string,
): Promise<Buffer[]> {
  const keyIdB64 = key.keyId.toString('base64')
  const getKey = async (): Promise<proto.Message.IAppStateSyncKeyData> => ({ keyData: key.keyData })
  let state = newLTHashState()
  const out: Buffer[] = []
  for (const contact of account.contacts ?? []) {
    const fullName = contact.name ?? contact.phone
    const encoded = await encodeSyncdPatch(
      {
        type: CONTACTS_COLLECTION,
        index: ['contact', `${contact.phone}@s.whatsapp.net`],
        // lidJid lets the client map LID-addressed group members to the contact (Baileys emits lid-mapping.update).
        syncAction: {
          timestamp: Date.now(),
          contactAction: { fullName, firstName: fullName.split(' ')[0], lidJid: lidOf(contact.phone) },
        },
        apiVersion: 2,
        operation: proto.SyncdMutation.SyncdOperation.SET,
      },
      keyIdB64,
      state,
      getKey as never,
    )
    state = encoded.state
    out.push(Buffer.from(proto.SyncdPatch.encode({ ...encoded.patch, version: { version: state.version } }).finish()))
  }
  return out
}

export const makeAppStateHandler =
  (keys: AppStateKeys): IqHandler =>
  async (ctx, conn, iq) => {
    const phone = conn.account?.phone
    const own = phone ? worldAccount(ctx.world(), phone) : undefined
    const collections: BinaryNode[] = []
    for (const collection of children(child(iq, 'sync'), 'collection')) {
      const name = collection.attrs.name ?? ''
      const version = Number(collection.attrs.version ?? 0)
      if (name === CONTACTS_COLLECTION && phone && own?.syncContacts && keys.has(phone)) {
        const patches = (await contactPatches(keys.keyFor(phone), own, p => ctx.accounts.ensure(p).lidJid)).slice(
          version,
        )
        if (patches.length) {
          collections.push(
            node('collection', { name, version: String(version) }, [
              node(
                'patches',
                {},
                patches.map(p => node('patch', {}, p)),
              ),
            ]),
          )
          continue
        }
      }
      collections.push(node('collection', { name, version: String(version) }))
    }
    return iqResult(iq, [node('sync', {}, collections)])
  }
