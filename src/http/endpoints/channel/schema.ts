/**
 * @module http/endpoints/channel/schema
 * The query of GET /channel/message: `channelId` required (checked like `groupId`: a malformed ID is a 400 here,
 * not a 500 from the platform), `before` optional; every failing line together.
 */
import { validationFailed } from '../../../protocol/errors.js'
import { RULE } from '../../schemas/validation-lines.js'
import { failures, type Checked } from '../../schemas/format.js'
import { isChannelId } from '../../schemas/ids.js'
import { requiredParam } from '../../schemas/params.js'

/**
 * `before`: absent or '' → newest page; otherwise a non-negative integer (the previous page's `before`). 0 is the
 * `before` of the oldest page: a client that sends it back once more gets an empty last page, not an error.
 */
function optionalBefore(value: unknown): Checked<number | undefined> {
  if (value === undefined || value === '') return { ok: true, value: undefined }
  if (typeof value !== 'string') return { ok: false, messages: [`before ${RULE.STRING}`] }
  const before = /^(0|[1-9]\d*)$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(before)) return { ok: false, messages: [`before ${RULE.BEFORE}`] }
  return { ok: true, value: before }
}

function checkChannelId(checked: Checked<string>): Checked<string> {
  if (!checked.ok || isChannelId(checked.value)) return checked
  return { ok: false, messages: [`channelId ${RULE.CHANNEL_ID}`] }
}

export function parseChannelQuery(query: Record<string, unknown>): { channelId: string; before?: number } {
  const channelId = checkChannelId(requiredParam('channelId', query.channelId))
  const before = optionalBefore(query.before)
  if (!channelId.ok || !before.ok) throw validationFailed(failures(channelId, before))
  return before.value === undefined
    ? { channelId: channelId.value }
    : { channelId: channelId.value, before: before.value }
}
