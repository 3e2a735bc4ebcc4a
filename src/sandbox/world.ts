/**
 * @module sandbox/world
 * The scenario document: validation-light parsing, merging a posted patch into the current world, and the rule that
 * every phone named anywhere (contacts, participants, followers) is itself a simulated account.
 */
import type { World, WorldAccount, WorldPatch } from './types.js'

/** Each accounts list's index by phone, built on its first look-up (a world is replaced whole, never changed). */
const accountIndexes = new WeakMap<WorldAccount[], Map<string, WorldAccount>>()

/**
 * The world's account with that phone. A scan of the list per look-up cost every send, login and pairing a time
 * that grows with the world (10,000 accounts in a scale bench); this is a map read, after one pass per world.
 */
export function worldAccount(world: World, phone: string | undefined): WorldAccount | undefined {
  if (phone === undefined) return undefined
  let index = accountIndexes.get(world.accounts)
  if (!index) accountIndexes.set(world.accounts, (index = new Map(world.accounts.map(a => [a.phone, a]))))
  return index.get(phone)
}

/** The world with one more account, a phone it lacks (a pairing's new phone): no merge, nothing else changes. */
export const withAccount = (world: World, phone: string): World => ({
  ...world,
  accounts: [...world.accounts, { phone }],
})

export const emptyWorld = (): World => ({ accounts: [], groups: [], channels: [] })

const digits = (phone: unknown): string => String(phone ?? '').replace(/\D/g, '')

/** Replace entries with the same key, append new ones, keep order stable. */
function mergeByKey<T>(current: T[], incoming: T[] | undefined, key: (item: T) => string): T[] {
  if (!incoming) return current
  const out = [...current]
  for (const item of incoming) {
    const index = out.findIndex(existing => key(existing) === key(item))
    if (index >= 0) out[index] = { ...out[index], ...item }
    else out.push(item)
  }
  return out
}

/** Throws a plain Error with a readable message when the document is not a world. */
export function parseWorldPatch(body: unknown): WorldPatch {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('world must be a JSON object')
  const doc = body as Record<string, unknown>
  for (const list of ['accounts', 'groups', 'channels']) {
    if (doc[list] !== undefined && !Array.isArray(doc[list])) throw new Error(`world.${list} must be an array`)
  }
  const patch = doc as WorldPatch
  for (const account of patch.accounts ?? []) {
    if (!digits(account?.phone)) throw new Error('every account needs a phone (digits)')
    account.phone = digits(account.phone)
    for (const contact of account.contacts ?? []) contact.phone = digits(contact.phone)
    if (account.chats !== undefined && !Array.isArray(account.chats)) throw new Error('account chats must be an array')
    if (account.chats) account.chats = account.chats.map(digits)
  }
  for (const group of patch.groups ?? []) {
    if (typeof group?.id !== 'string' || !group.id.endsWith('@g.us'))
      throw new Error('every group needs an id ending in @g.us')
    if (!Array.isArray(group.participants)) throw new Error(`group ${group.id} needs participants`)
    for (const participant of group.participants) participant.phone = digits(participant.phone)
  }
  for (const channel of patch.channels ?? []) {
    if (typeof channel?.id !== 'string' || !channel.id.endsWith('@newsletter'))
      throw new Error('every channel needs an id ending in @newsletter')
    if (channel.owner) channel.owner = digits(channel.owner)
    channel.followers = (channel.followers ?? []).map(digits)
    if (channel.admins) channel.admins = channel.admins.map(digits)
  }
  return patch
}

/** Merge a patch into a world and add accounts for every phone the world mentions. */
export function mergeWorld(world: World, patch: WorldPatch): World {
  const merged: World = {
    accounts: mergeByKey(world.accounts, patch.accounts, a => a.phone),
    groups: mergeByKey(world.groups, patch.groups, g => g.id),
    channels: mergeByKey(world.channels, patch.channels, c => c.id),
  }
  const known = new Set(merged.accounts.map(a => a.phone))
  const mention = (phone: string | undefined): void => {
    if (phone && !known.has(phone)) {
      known.add(phone)
      merged.accounts.push({ phone })
    }
  }
  for (const account of merged.accounts.slice()) for (const contact of account.contacts ?? []) mention(contact.phone)
  for (const group of merged.groups) for (const participant of group.participants) mention(participant.phone)
  for (const channel of merged.channels) {
    mention(channel.owner)
    for (const follower of channel.followers ?? []) mention(follower)
    for (const admin of channel.admins ?? []) mention(admin)
  }
  return merged
}

/** The built-in demo world used when no --world file is given. */
export const demoWorld = (): World =>
  mergeWorld(emptyWorld(), {
    accounts: [
      {
        phone: '15550000001',
        name: 'Alice',
        picture: true,
        syncContacts: true,
        contacts: [
          { phone: '15550000002', name: 'Bob' },
          { phone: '15550000003', name: 'Carol' },
        ],
        statusPrivacy: { setting: 'contacts', list: [] },
      },
      { phone: '15550000002', name: 'Bob', picture: true },
      { phone: '15550000003', name: 'Carol' },
    ],
    groups: [
      {
        id: '120363000000000001@g.us',
        name: 'Team',
        description: 'The demo team',
        created: '2025-01-01T00:00:00Z',
        picture: true,
        participants: [
          { phone: '15550000001', admin: 'superadmin' },
          { phone: '15550000002' },
          { phone: '15550000003', hidePhone: true },
        ],
      },
    ],
    channels: [
      {
        id: '120363000000000009@newsletter',
        name: 'News',
        created: '2025-01-01T00:00:00Z',
        picture: true,
        owner: '15550000001',
        followers: ['15550000002'],
        messages: [
          { type: 'text', text: 'hello' },
          { type: 'image', caption: 'pic' },
        ],
      },
    ],
  })
