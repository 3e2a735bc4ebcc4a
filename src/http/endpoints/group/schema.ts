/**
 * @module http/endpoints/group/schema
 * The group ID of GET /group/member (query `groupId`) and GET /group/:groupId (path): required, and it must end in
 * `@g.us`, so a malformed one is a 400 here rather than a 500 from the platform.
 */
import { validationFailed } from '../../../protocol/errors.js'
import { RULE } from '../../schemas/validation-lines.js'
import { isGroupId } from '../../schemas/ids.js'
import { requiredParam } from '../../schemas/params.js'

export function parseGroupId(value: unknown): string {
  const groupId = requiredParam('groupId', value)
  if (!groupId.ok) throw validationFailed(groupId.messages)
  if (!isGroupId(groupId.value)) throw validationFailed([`groupId ${RULE.GROUP_ID}`])
  return groupId.value
}
