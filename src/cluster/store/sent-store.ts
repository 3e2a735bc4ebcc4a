/**
 * @module cluster/store/sent-store
 * The sent messages kept for retry receipts on Redis (`gw:{id}:sent`, a hash, field = message id hidden with the
 * session's key): the same eviction as lmdb's (sent-messages.ts), applied to this thread's index of the hash.
 */
import {
  evictBeyondLimits,
  type SentMessage,
  type SentMessageLimits,
  type SentMessageStore,
  type StoredSentMessage,
} from '../../storage/sent-messages.js'
import { sessionPrefix } from '../../storage/keys.js'
import type { RedisConnection } from './connection.js'
import { sessionKeys } from './keys.js'
import type { Sealing } from './sealing.js'
import type { BatchWriter } from './batch.js'
import { hashEntries } from './hash-entries.js'

export function redisSentMessages(ready: Promise<RedisConnection>, sealing: Sealing, writer: BatchWriter) {
  /** session id → (message id → sentAt), oldest first: this thread's index, as in sent-messages.ts. */
  const indexes = new Map<string, Map<string, number>>()

  async function readSent(id: string): Promise<StoredSentMessage[]> {
    const seal = await sealing.forRead(id)
    return hashEntries(await (await ready).command(['HGETALL', sessionKeys(id).sent])).map(
      ([field, stored]) => JSON.parse(seal.open('sent', field, stored)) as StoredSentMessage,
    )
  }

  async function indexOf(id: string): Promise<Map<string, number>> {
    let index = indexes.get(id)
    if (!index) {
      const rows = (await readSent(id)).sort((a, b) => a.sentAt - b.sentAt)
      index = indexes.get(id) ?? new Map(rows.map(r => [r.id, r.sentAt]))
      indexes.set(id, index)
    }
    return index
  }

  function store(id: string, limits: SentMessageLimits): SentMessageStore {
    const k = sessionKeys(id)
    const name = (messageId: string) => `${sessionPrefix(id)}${messageId}`
    return {
      limits,
      async put(messageId: string, sent: SentMessage) {
        if (limits.maxMessages <= 0) return
        const index = await indexOf(id)
        index.delete(messageId)
        index.set(messageId, sent.sentAt)
        const evicted = evictBeyondLimits(index, limits, Date.now())
        const row: StoredSentMessage = {
          id: messageId,
          chats: sent.chats,
          sentAt: sent.sentAt,
          message: Buffer.from(sent.message).toString('base64'),
        }
        await writer.write(id, (seal, batch) => {
          for (const old of evicted) batch.hdel(k.sent, seal.field(name(old)))
          if (!evicted.includes(messageId)) {
            const field = seal.field(name(messageId))
            batch.hset(k.sent, field, seal.seal('sent', field, JSON.stringify(row)))
          }
        })
      },
      async get(messageId: string) {
        const seal = await sealing.forRead(id)
        const field = seal.field(name(messageId))
        const stored = await (await ready).command(['HGET', k.sent, field])
        if (!Buffer.isBuffer(stored)) return undefined
        const row = JSON.parse(seal.open('sent', field, stored)) as StoredSentMessage
        if (row.id !== messageId || row.sentAt <= Date.now() - limits.maxAgeMs) return undefined
        return { message: Buffer.from(row.message, 'base64'), chats: row.chats, sentAt: row.sentAt }
      },
      async prune() {
        const old = evictBeyondLimits(await indexOf(id), limits, Date.now())
        if (old.length === 0) return
        await writer.write(id, (seal, batch) => {
          for (const messageId of old) batch.hdel(k.sent, seal.field(name(messageId)))
        })
      },
      async clear() {
        await writer.remove(id, batch => batch.del(k.sent), [k.creds, k.keys, k.contacts, k.chats])
        indexes.delete(id)
      },
    }
  }

  return { store, forget: (id: string) => void indexes.delete(id) }
}
