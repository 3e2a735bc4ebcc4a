/**
 * @module http/schemas/destination
 * Picks where a message or typing indicator goes. Precedence is group, then newsletter, then phone (SPEC: POST
 * /message): the first *filled* field (not missing, null or '') is chosen and must pass its own rule; a bad group
 * does not fall back to a good phone, because the client asked for the group.
 */
import type { Destination, TypingDestination } from '../../protocol/spec-types.js'
import { isChannelId, isGroupId } from './ids.js'
import { normalisePhone } from './phone.js'

const filled = (value: unknown): boolean => value !== undefined && value !== null && value !== ''

function fromGroup(value: unknown): Extract<Destination, { kind: 'group' }> | undefined {
  return typeof value === 'string' && isGroupId(value) ? { kind: 'group', jid: value } : undefined
}

function fromPhone(value: unknown): Extract<Destination, { kind: 'phone' }> | undefined {
  const phone = typeof value === 'string' ? normalisePhone(value) : undefined
  return phone === undefined ? undefined : { kind: 'phone', phone }
}

/** POST /message: group > newsletter > phone. Undefined → 400 `invalid phone, group or newsletter`. */
export function messageDestination(body: Record<string, unknown>): Destination | undefined {
  if (filled(body.group)) return fromGroup(body.group)
  if (filled(body.newsletter)) {
    const value = body.newsletter
    return typeof value === 'string' && isChannelId(value) ? { kind: 'channel', jid: value } : undefined
  }
  if (filled(body.phone)) return fromPhone(body.phone)
  return undefined
}

/** POST /typing: group > phone; `newsletter` is not a typing target and is ignored. */
export function typingDestination(body: Record<string, unknown>): TypingDestination | undefined {
  if (filled(body.group)) return fromGroup(body.group)
  if (filled(body.phone)) return fromPhone(body.phone)
  return undefined
}
