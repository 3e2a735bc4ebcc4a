/**
 * @module cluster/store/conversation-rows
 * One session's existing conversations on Redis (`gw:{id}:chats`, a hash: field = the number, hidden with DATA_KEY;
 * value = the sealed row), written through fenced batches like every other row of the session (batch.ts).
 */
import type { Conversation, ConversationStore } from '../../storage/conversations.js'
import { contactKey } from '../../storage/keys.js'
import { sessionKeys } from './keys.js'
import { putSealedHashRows, type SessionRowDeps, sealedHashRows } from './session-rows.js'

export function redisConversationStore({ ready, sealing, writer }: SessionRowDeps, id: string): ConversationStore {
  const k = sessionKeys(id)
  return {
    all: () => sealedHashRows<Conversation>({ ready, sealing }, id, k.chats, 'conversations'),
    put: conversations => putSealedHashRows(writer, id, k.chats, 'conversations', conversations, c => c.phone),
    async remove(phones) {
      if (phones.length === 0) return
      await writer.write(id, (seal, batch) => {
        for (const phone of phones) batch.hdel(k.chats, seal.field(contactKey(id, phone)))
      })
    },
    async clear() {
      await writer.remove(id, batch => batch.del(k.chats), [k.creds, k.keys, k.contacts, k.sent])
    },
  }
}
