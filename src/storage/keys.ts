/**
 * @module storage/keys
 * Key layout inside the lmdb environment. Every row a session owns starts with `<id>\0`, so one range scan finds
 * all of them (ids are base64url/hex and never contain NUL). `\u0001` sorts right after `\0`: the range end.
 */
const SEP = '\u0000'
const END = '\u0001'

export const sessionPrefix = (id: string): string => `${id}${SEP}`
export const sessionRangeEnd = (id: string): string => `${id}${END}`
export const signalKey = (id: string, type: string, keyId: string): string => `${id}${SEP}${type}${SEP}${keyId}`
export const contactKey = (id: string, contactId: string): string => `${id}${SEP}${contactId}`
