/**
 * @module http/validation-messages
 * Every message the HTTP layer itself can answer with, for the README. `<path>` is a field path joined with a
 * dot (`image.url`); several validation lines are joined by '\n' in one `message`. Messages raised by the
 * system (session not connected, media download, channel not found, status privacy, 503...) live in
 * src/protocol/errors.ts. A test checks that every line the routes produce matches one of these patterns.
 */
import { MESSAGE_TYPES, STATUS_TYPES } from '../protocol/spec-types.js'

export interface DocumentedMessage {
  status: number
  /** The message; `<path>` stands for a field path. */
  pattern: string
  when: string
}

export const VALIDATION_MESSAGES: readonly DocumentedMessage[] = [
  { status: 400, pattern: 'invalid header', when: 'header `id` or `session-id` missing or empty' },
  { status: 404, pattern: 'session not found', when: 'unknown or deleted session, or a wrong `session-id`' },
  { status: 404, pattern: 'not found', when: 'unknown path or method, and every request to /webhook' },
  { status: 415, pattern: 'content-type must be application/json', when: 'a POST body that is not application/json' },
  { status: 413, pattern: 'request body too large', when: 'body above BODY_LIMIT_BYTES' },
  { status: 400, pattern: 'path is not valid URL encoding', when: 'a path parameter with broken percent-encoding' },
  { status: 400, pattern: 'body is not valid JSON', when: 'malformed JSON body' },
  { status: 400, pattern: 'body must be a JSON object', when: 'JSON body that is an array or a scalar' },
  {
    status: 400, pattern: 'invalid phone, group or newsletter',
    when: 'POST /message: no destination, or the one chosen (group > newsletter > phone) breaks its rule: ' +
      'group `…@g.us`, newsletter `…@newsletter`, phone 6-15 digits once `+`, spaces, dashes, parentheses, dots are stripped',
  },
  { status: 400, pattern: 'invalid phone or group', when: 'POST /typing: same, with phone or group only' },
  { status: 400, pattern: '<path> should not be empty', when: 'required field missing, null or empty (also the object required by `type`)' },
  { status: 400, pattern: '<path> must be a string', when: 'a string field (required or optional) holds something else' },
  { status: 400, pattern: '<path> must be a number', when: 'duration, size, latitude, longitude not a finite number' },
  { status: 400, pattern: '<path> must be an object', when: 'image, video, audio, document, location, contact not an object' },
  { status: 400, pattern: `type must be one of the following values: ${MESSAGE_TYPES.join(', ')}`, when: 'POST /message' },
  { status: 400, pattern: `type must be one of the following values: ${STATUS_TYPES.join(', ')}`, when: 'POST /status' },
  { status: 400, pattern: 'type must be one of the following values: text, audio', when: 'POST /typing (type is optional, default text)' },
  { status: 400, pattern: '<path> must be greater than 0', when: 'video.duration, audio.duration, document.size' },
  { status: 400, pattern: '<path> must not be 0', when: 'location.latitude, location.longitude' },
  { status: 400, pattern: 'location.latitude must be between -90 and 90', when: 'latitude out of range' },
  { status: 400, pattern: 'location.longitude must be between -180 and 180', when: 'longitude out of range' },
  { status: 400, pattern: '<path> must be an http or https URL', when: '*.url, and *.thumbnail when not empty' },
  { status: 400, pattern: 'contact.phone must be a valid phone number', when: 'not 6-15 digits after normalisation' },
  { status: 400, pattern: 'groupId must be a group ID ending in @g.us', when: 'GET /group/:groupId and GET /group/member' },
  { status: 400, pattern: 'channelId must be a channel ID ending in @newsletter', when: 'GET /channel/message' },
  { status: 400, pattern: 'before must be a non-negative integer', when: 'GET /channel/message `before` not digits or too large (0 → empty last page)' },
]
