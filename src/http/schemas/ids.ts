/**
 * @module http/schemas/ids
 * Platform identifier shapes (SPEC: Identifier formats): `<group_id>@g.us` and `<channel_id>@newsletter`.
 */
export const GROUP_ID = /^[^\s@]+@g\.us$/
export const CHANNEL_ID = /^[^\s@]+@newsletter$/

export const isGroupId = (value: string): boolean => GROUP_ID.test(value)
export const isChannelId = (value: string): boolean => CHANNEL_ID.test(value)
