/**
 * @module platform/baileys/signal-recovery/recovering-keys
 * Signal state after an unclean stop.
 *
 * Why: Baileys encrypts a message, sends it, and only then commits the advanced ratchet (its key-store transaction
 * commits after `sendNode`, `messages-send.js`). A process killed in between leaves the stored state one step
 * behind what the recipient already received: the next message would reuse a spent message key, and the recipient
 * could never decrypt it (the phone shows "waiting for this message"). Our own group sender keys have the same gap.
 *
 * What: while a session recovers from an unclean stop (`RecoveryState`), no Signal state that existed before that
 * stop is used to send again. This store sits under Baileys' caches and
 * - closes, as it is read, a 1:1 session record's open session created before the stop, and writes that back:
 *   Baileys then fetches a fresh prekey bundle and starts a new session (its next message is a `pkmsg`), while the
 *   closed session still decrypts whatever the contact sends on it (libsignal tries closed sessions too);
 * - hides our own group sender key until Baileys has made a new one, and the group's sender-key memory with it, so
 *   the new key goes to every member device.
 * State received from others (their sending chains, their sender keys) is kept: a stored state that is behind the
 * sender only derives forward. Nothing changes for a session whose runs all ended cleanly.
 */
import { jidDecode, type SignalDataSet, type SignalDataTypeMap, type SignalKeyStore } from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { AuthStore } from '../../../storage/types.js'
import type { RecoveryState } from './run-marker.js'

/** The stored shape of a libsignal `SessionRecord` (`serialize()`), as far as this module reads it. */
interface StoredSessionRecord {
  _sessions?: Record<string, { indexInfo?: { closed?: number; created?: number } }>
}

/** Closes every open session created before `staleBefore`; true when something changed. */
function closeStaleSessions(record: StoredSessionRecord | undefined, staleBefore: number, now: number): boolean {
  let changed = false
  for (const entry of Object.values(record?._sessions ?? {})) {
    const info = entry.indexInfo
    if (info?.closed === -1 && (info.created ?? 0) < staleBefore) {
      info.closed = now
      changed = true
    }
  }
  return changed
}

/** `<group>::<signal user>::<device>` → its parts (the group never holds `::`; the signal user may end `_<domain>`). */
export function parseSenderKeyName(name: string): { group: string; user: string; device: string } | undefined {
  const parts = name.split('::')
  if (parts.length < 3) return undefined
  const device = parts.pop()!
  const signalUser = parts.pop()!
  return { group: parts.join('::'), user: signalUser.split('_')[0]!, device }
}

export interface RecoveryOptions {
  state: RecoveryState
  /** Persists `state` after a renewal. */
  save: (state: RecoveryState) => Promise<void>
  log: Logger
  now?: () => number
}

export function recoveringKeys(auth: AuthStore, options: RecoveryOptions): SignalKeyStore {
  const { state, save, log } = options
  const now = options.now ?? Date.now
  const keys = auth.keys
  const renewedKeys = new Set(state.renewedKeys)
  const renewedGroups = new Set(state.renewedGroups)
  /** `<user>::<device>` of this device, by phone number and by LID (read once the account is known). */
  let own: Set<string> | undefined
  const ownIdentity = async (): Promise<Set<string>> => {
    if (own) return own
    const me = (await auth.readCreds())?.me
    const found = new Set<string>()
    for (const jid of [me?.id, me?.lid]) {
      const d = jid ? jidDecode(jid) : undefined
      if (d?.user) found.add(`${d.user}::${d.device ?? 0}`)
    }
    if (found.size > 0) own = found
    return found
  }
  const isOwnKey = async (name: string): Promise<boolean> => {
    const parsed = parseSenderKeyName(name)
    return !!parsed && (await ownIdentity()).has(`${parsed.user}::${parsed.device}`)
  }

  return {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const found = await keys.get(type, ids)
      if (type === 'session') {
        const closed: Record<string, SignalDataTypeMap['session']> = {}
        for (const [id, record] of Object.entries(found)) {
          if (closeStaleSessions(record as StoredSessionRecord, state.staleBefore, now()))
            closed[id] = record as SignalDataTypeMap['session']
        }
        if (Object.keys(closed).length > 0) {
          await keys.set({ session: closed })
          log.debug({ count: Object.keys(closed).length }, 'closed Signal sessions older than the unclean stop')
        }
      } else if (type === 'sender-key') {
        for (const id of Object.keys(found)) if (!renewedKeys.has(id) && (await isOwnKey(id))) delete found[id]
      } else if (type === 'sender-key-memory') {
        for (const id of Object.keys(found)) if (!renewedGroups.has(id)) delete found[id]
      }
      return found
    },

    async set(data: SignalDataSet) {
      await keys.set(data)
      let renewed = false
      for (const [name, value] of Object.entries(data['sender-key'] ?? {})) {
        if (value === null || value === undefined || renewedKeys.has(name) || !(await isOwnKey(name))) continue
        renewedKeys.add(name)
        renewedGroups.add(parseSenderKeyName(name)!.group)
        renewed = true
      }
      if (!renewed) return
      state.renewedKeys = [...renewedKeys]
      state.renewedGroups = [...renewedGroups]
      await save(state)
    },

    ...(keys.clear ? { clear: () => keys.clear!() } : {}),
  }
}
