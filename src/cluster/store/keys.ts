/**
 * @module cluster/store/keys
 * The Redis key schema. Everything one session owns sits under `gw:{<id>}:…`: the braces are a hash tag, so all of
 * a session's keys live in one Redis Cluster slot and one Lua script may touch them together. Shared keys:
 * `gw:sessions` (the registry: a hash, field = session id), `gw:meta` (the DATA_KEY check marker, the nodes' peer
 * token, the platform facts of storage/platform-facts.ts), and the nodes' heartbeats `gw:nodes` / `gw:node:<NODE_ID>`
 * (cluster/node-directory.ts).
 *
 *   gw:{id}:lease     "<node>|<epoch>", PX = lease TTL (src/cluster/store/lease.ts)
 *   gw:{id}:epoch     fencing epoch, INCR on every acquisition
 *   gw:{id}:owner     the node that acquired the lease last (a take-over is an acquisition by another node)
 *   gw:{id}:creds     Baileys credentials (one value)
 *   gw:{id}:keys      hash: Signal keys, field `<type>\0<keyId>` (hidden with DATA_KEY)
 *   gw:{id}:contacts  hash: address book, field = contact id (hidden with DATA_KEY)
 *   gw:{id}:chats     hash: existing conversations, field = phone digits (hidden with DATA_KEY)
 *   gw:{id}:sent      hash: sent messages kept for retry receipts, field = message id (hidden with DATA_KEY)
 *   gw:{id}:skey      with DATA_KEY: the session's own key, sealed with DATA_KEY (storage/session-keys.ts)
 */
export const REGISTRY_KEY = 'gw:sessions'
export const META_KEY = 'gw:meta'
/** The registry's index of sessions awaiting a scan: a sorted set, score = QR deadline (registry.ts). */
export const UNPAIRED_KEY = 'gw:unpaired'
/** One client's unpaired sessions (`tag`: a keyed hash of its address, never the address). */
export const unpairedOfClientKey = (tag: string): string => `gw:unpaired-of:${tag}`
/** One client's bucket of POST /session (cluster/limits.ts). */
export const createRateKey = (tag: string): string => `gw:create-rate:${tag}`
/** One client's bucket of pairing codes, and one phone number's (`tag`: a keyed hash, never the number). */
export const pairingClientKey = (tag: string): string => `gw:pairing-client:${tag}`
export const pairingPhoneKey = (tag: string): string => `gw:pairing-phone:${tag}`

const tag = (id: string): string => `gw:{${id}}`

export const sessionKeys = (id: string) => ({
  lease: `${tag(id)}:lease`,
  epoch: `${tag(id)}:epoch`,
  owner: `${tag(id)}:owner`,
  creds: `${tag(id)}:creds`,
  keys: `${tag(id)}:keys`,
  contacts: `${tag(id)}:contacts`,
  sent: `${tag(id)}:sent`,
  chats: `${tag(id)}:chats`,
  skey: `${tag(id)}:skey`,
})

export type SessionKeyNames = ReturnType<typeof sessionKeys>

/** The keys that hold a session's data (what a delete or a migration copies), lease, epoch and owner excluded. */
export const dataKeysOf = (id: string): string[] => {
  const k = sessionKeys(id)
  return [k.creds, k.keys, k.contacts, k.sent, k.chats, k.skey]
}
