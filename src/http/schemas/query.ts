/**
 * @module http/schemas/query
 * Query and path parameters. The spec fixes the missing-parameter message as two lines, `groupId should not be
 * empty` and `groupId must be a string` (both rules fail on a missing value); a repeated parameter
 * (`?groupId=a&groupId=b`, parsed as an array) is `must be a string` alone, an empty one `should not be empty`.
 */
import { validationFailed } from '../../protocol/errors.js'
import { type Checked } from './format.js'
import { isChannelId, isGroupId } from './ids.js'
import { failures } from './body.js'

export const GROUP_ID_RULE = 'must be a group ID ending in @g.us'
export const CHANNEL_ID_RULE = 'must be a channel ID ending in @newsletter'
export const BEFORE_RULE = 'must be a non-negative integer'

function requiredParam(name: string, value: unknown): Checked<string> {
  if (value === undefined) return { ok: false, messages: [`${name} should not be empty`, `${name} must be a string`] }
  if (typeof value !== 'string') return { ok: false, messages: [`${name} must be a string`] }
  if (value === '') return { ok: false, messages: [`${name} should not be empty`] }
  return { ok: true, value }
}

/** A group ID from the query (`groupId`) or the path; must end in `@g.us`. */
export function parseGroupId(value: unknown): string {
  const groupId = requiredParam('groupId', value)
  if (!groupId.ok) throw validationFailed(groupId.messages)
  if (!isGroupId(groupId.value)) throw validationFailed([`groupId ${GROUP_ID_RULE}`])
  return groupId.value
}

/**
 * `before`: absent or '' → newest page; otherwise a non-negative integer (the previous page's `before`). 0 is the
 * `before` of the oldest page: a client that sends it back once more gets an empty last page, not an error.
 */
function optionalBefore(value: unknown): Checked<number | undefined> {
  if (value === undefined || value === '') return { ok: true, value: undefined }
  if (typeof value !== 'string') return { ok: false, messages: ['before must be a string'] }
  const before = /^(0|[1-9]\d*)$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(before)) return { ok: false, messages: [`before ${BEFORE_RULE}`] }
  return { ok: true, value: before }
}

/** Checked like `groupId`: a malformed ID is a 400 here, not a 500 from the platform. */
function checkChannelId(checked: Checked<string>): Checked<string> {
  if (!checked.ok || isChannelId(checked.value)) return checked
  return { ok: false, messages: [`channelId ${CHANNEL_ID_RULE}`] }
}

/** GET /channel/message: `channelId` required, `before` optional; all failing lines together. */
export function parseChannelQuery(query: Record<string, unknown>): { channelId: string; before?: number } {
  const channelId = checkChannelId(requiredParam('channelId', query['channelId']))
  const before = optionalBefore(query['before'])
  if (!channelId.ok || !before.ok) throw validationFailed(failures(channelId, before))
  return before.value === undefined ? { channelId: channelId.value } : { channelId: channelId.value, before: before.value }
}
