/**
 * @module http/schemas/validation-lines
 * The lines of a 400 VALIDATION answer, and the list of every message a client can get: the text of validation,
 * beside the schemas that check (the thread contract under protocol/ holds none of it). Each error code's message
 * is in its entry of protocol/error-table.ts; a validation answer is made of lines instead, one per failing rule:
 * a field's path joined with a dot (`image.url`) in front of a `RULE` (put there by ./format.ts), or one of the
 * whole `LINE`s. Word for word from SPEC.md where the spec gives them. The "Errors" table of
 * docs/api.md lists each of `CLIENT_MESSAGES` (test/unit/protocol/error-table/errors-doc.test.ts keeps the two in
 * step).
 *
 * @example
 * validationFailed([`groupId ${RULE.GROUP_ID}`]) // 400 groupId must be a group ID ending in @g.us
 */
import { ERRORS, type ErrorCode } from '../../protocol/error-table.js'
import { MESSAGE_TYPES, STATUS_TYPES } from '../../protocol/spec-types.js'
import { fill } from '../../protocol/template.js'

/** The rules of a 400 validation line, each after its field's path; several lines are joined by '\n'. */
export const RULE = {
  EMPTY: 'should not be empty',
  STRING: 'must be a string',
  NUMBER: 'must be a number',
  OBJECT: 'must be an object',
  ONE_OF: 'must be one of the following values: <values>',
  GREATER_THAN: 'must be greater than <minimum>',
  NOT_ZERO: 'must not be 0',
  BETWEEN: 'must be between -<limit> and <limit>',
  HTTP_URL: 'must be an http or https URL',
  PHONE: 'must be a valid phone number',
  GROUP_ID: 'must be a group ID ending in @g.us',
  CHANNEL_ID: 'must be a channel ID ending in @newsletter',
  BEFORE: 'must be a non-negative integer',
  PROXY_URL: 'must be a socks5, socks5h, http or https URL with a host and no path',
  /** `text` over TEXT_MAX_CHARS. */
  MAX_CHARS: 'must be shorter than or equal to <max> characters',
  /** GET /session?wait, GET /session/qr?wait. */
  WAIT: 'must be a whole number of seconds',
  /** A broken rule with no words of its own; no field of the current schemas has one. */
  INVALID: 'is invalid',
} as const

/** Whole validation lines, about no one field. */
export const LINE = {
  /** A JSON body that is an array or a scalar. */
  BODY_NOT_OBJECT: 'body must be a JSON object',
} as const

/** A rule with its path; `<path>` where the rule applies to many fields. */
const line = (path: string, rule: string): string => `${path} ${rule}`

/** VALIDATION's message is its lines; every other code's is its own. */
const codeMessages = (Object.keys(ERRORS) as ErrorCode[])
  .filter(code => code !== 'VALIDATION')
  .map(code => ERRORS[code].message)

/** Every message as the Errors table (docs/api.md) lists it: validation lines with the paths and values they have. */
export const CLIENT_MESSAGES: readonly string[] = [
  ...codeMessages,
  ...Object.values(LINE),
  ...[RULE.EMPTY, RULE.STRING, RULE.NUMBER, RULE.OBJECT, RULE.NOT_ZERO, RULE.HTTP_URL, RULE.INVALID].map(rule =>
    line('<path>', rule),
  ),
  line('<path>', fill(RULE.GREATER_THAN, { minimum: 0 })),
  ...[MESSAGE_TYPES, STATUS_TYPES, ['text', 'audio']].map(types =>
    line('type', fill(RULE.ONE_OF, { values: types.join(', ') })),
  ),
  line('location.latitude', fill(RULE.BETWEEN, { limit: 90 })),
  line('location.longitude', fill(RULE.BETWEEN, { limit: 180 })),
  line('contact.phone', RULE.PHONE),
  line('phone', RULE.PHONE),
  line('text', RULE.MAX_CHARS),
  line('groupId', RULE.GROUP_ID),
  line('channelId', RULE.CHANNEL_ID),
  line('before', RULE.BEFORE),
  line('proxy', RULE.PROXY_URL),
  line('wait', RULE.WAIT),
]
