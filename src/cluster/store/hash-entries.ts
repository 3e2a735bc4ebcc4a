/**
 * @module cluster/store/hash-entries
 * A HGETALL reply as [field, value] pairs: node-redis gives an array, a Map or an object depending on its type
 * mapping, and every reader of a hash wants the same pairs.
 */
export const hashEntries = (reply: unknown): Array<[string, Buffer]> => {
  if (reply instanceof Map) return [...reply].map(([f, v]) => [String(f), v as Buffer])
  if (Array.isArray(reply)) {
    const out: Array<[string, Buffer]> = []
    for (let i = 0; i + 1 < reply.length; i += 2) out.push([String(reply[i]), reply[i + 1] as Buffer])
    return out
  }
  return reply && typeof reply === 'object' ? Object.entries(reply as Record<string, Buffer>) : []
}
