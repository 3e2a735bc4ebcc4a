/**
 * @module storage/conversations
 * Each session's existing conversations: the phone numbers (digits) the account has exchanged a 1:1 message with,
 * as far as the gateway has seen (its own sends, the messages it receives, the chats the platform lists at pairing
 * and in history sync), each with when it was last seen. No message content, no names: one row per number. The
 * brake on new chats (actors/session/new-chat-brake.ts) reads them, so a restricted account keeps writing to the
 * people it already talks to.
 *
 * On lmdb the rows are `<id>\0<digits>` in the `conversations` sub-database, sealed with the session's own key when
 * DATA_KEY is set (the number hidden in the row's name, the time in the sealed value), like contacts. On Redis, the
 * hash `gw:{id}:chats` (redis/conversation-rows.ts). The count per session is bounded by the actor (its oldest go
 * first), which removes what it drops.
 */
import type { RootDatabase } from 'lmdb'
import { committed } from './commit-failure.js'
import { contactKey, sessionPrefix, sessionRangeEnd } from './keys.js'
import type { Table } from './table.js'

export interface Conversation {
  /** The other party's phone number, digits only. */
  phone: string
  /** Epoch ms when the gateway last saw a message of this conversation. */
  seenAt: number
}

export interface ConversationStore {
  all(): Promise<Conversation[]>
  /** Adds or refreshes conversations. */
  put(conversations: Conversation[]): Promise<void>
  remove(phones: string[]): Promise<void>
  clear(): Promise<void>
}

/** One row as stored (the phone is in the row's name too, hidden when sealed). */
export type StoredConversation = Conversation

/** The lmdb rows of one session; `removed` runs inside a removal's transaction (compaction, the session key). */
export function lmdbConversations(
  root: RootDatabase,
  table: Table<StoredConversation>,
  id: string,
  removed: () => void,
): ConversationStore {
  return {
    async all() {
      return table.range(sessionPrefix(id), sessionRangeEnd(id))
    },
    async put(conversations) {
      if (conversations.length === 0) return
      await committed(
        root.transaction(() => {
          for (const c of conversations) table.putSync(contactKey(id, c.phone), c)
        }),
      )
    },
    async remove(phones) {
      if (phones.length === 0) return
      await committed(
        root.transaction(() => {
          for (const phone of phones) table.removeSync(contactKey(id, phone))
          removed()
        }),
      )
    },
    async clear() {
      await committed(
        root.transaction(() => {
          table.removeRangeSync(sessionPrefix(id), sessionRangeEnd(id))
          removed()
        }),
      )
    },
  }
}
