/**
 * @module http/openapi/response-schemas
 * Zod schemas of every response body, for the OpenAPI document only (routes build their bodies from the types in
 * src/protocol/spec-types.ts). Each schema is tied to its TypeScript type by `satisfies`, so a field added to or
 * removed from a type fails the type-check here. Objects are strict (`additionalProperties: false`): the gateway
 * answers with exactly the spec's fields, and the end-to-end response validator holds it to that.
 */
import { z } from 'zod'
import type { Channel, ChannelMessage, Group, GroupMember, SessionView } from '../../protocol/spec-types.js'
import type { ErrorBody } from '../errors.js'
import type { QrViewBody, ViewLinkBody } from '../routes/view-link.js'

/** Keeps a schema's own type (for zod-openapi) while checking it parses to `T`. */
const shapeOf = <T>() => <S extends z.ZodType<T>>(schema: S): S => schema

const isoTime = () => z.string().describe('ISO 8601 time')

export const errorBodySchema = shapeOf<ErrorBody>()(z.strictObject({
  statusCode: z.int().min(400).max(599).describe('The HTTP status, repeated'),
  message: z.string().describe('What went wrong; several validation failures are joined by a line break'),
}).meta({ id: 'Error', example: { statusCode: 404, message: 'session not found' } }))

export const createdSessionSchema = z.strictObject({
  id: z.string().describe('Main session ID, sent as header `id`'),
  sessionId: z.string().describe('Session secret, sent as header `session-id`'),
}).meta({ id: 'CreatedSession' })

export const sessionSchema = shapeOf<SessionView>()(z.strictObject({
  id: z.string(),
  generatedId: z.string().describe('Device ID of the connected device (`<number>:<device>@s.whatsapp.net`); empty if it never connected'),
  name: z.string().describe('Name of the connected account; empty when not connected'),
  sessionId: z.string(),
  isConnected: z.boolean(),
  qrcode: z.string().describe('QR image as base64 PNG without a `data:` prefix; empty before the first QR and once connected'),
  picture: z.string().describe('Profile picture URL; may be empty'),
}).meta({ id: 'Session' }))

export const sessionIdOnlySchema = z.strictObject({ id: z.string() }).meta({ id: 'SessionId' })

export const messageIdSchema = z.strictObject({
  messageId: z.string().describe('Set once the platform server acknowledged the message'),
}).meta({ id: 'MessageId' })

export const statusIdSchema = z.strictObject({ statusId: z.string() }).meta({ id: 'StatusId' })

export const groupSchema = shapeOf<Group>()(z.strictObject({
  id: z.string().describe('`<group_id>@g.us`'),
  name: z.string(),
  description: z.string().describe('Empty if none'),
  picture: z.string().describe('Empty if none'),
  created: isoTime().nullable(),
}).meta({ id: 'Group' }))

export const groupMemberSchema = shapeOf<GroupMember>()(z.strictObject({
  id: z.string().describe('`<number>@s.whatsapp.net` whenever the number is known (given by the group, the LID '
    + 'mapping or the account\'s address book), else `<anonymous_id>@lid`'),
  name: z.string().describe('From the address book, else the number; empty when the number is hidden'),
  phone: z.string().describe('Digits; empty when the number is hidden behind an `@lid` the account cannot link'),
}).meta({ id: 'GroupMember' }))

export const channelSchema = shapeOf<Channel>()(z.strictObject({
  id: z.string().describe('`<channel_id>@newsletter`'),
  name: z.string(),
  picture: z.string(),
  isOwner: z.boolean().describe('true if the account owns or administers the channel (only those accept messages)'),
  created: isoTime(),
}).meta({ id: 'Channel' }))

export const channelMessageSchema = shapeOf<ChannelMessage>()(z.strictObject({
  id: z.string(),
  serverId: z.number().describe('Sequence number in the channel; higher is newer'),
  url: z.string(),
  type: z.enum(['text', 'image', 'video', 'poll', 'sticker']),
  text: z.string().describe('Text or caption; `UNSUPPORTED TYPE` for types not yet supported'),
  image: z.strictObject({ url: z.string(), thumbnail: z.string(), mimetype: z.string() }).optional(),
  video: z.strictObject({ url: z.string(), thumbnail: z.string(), duration: z.number(), mimetype: z.string() }).optional(),
  sticker: z.strictObject({ url: z.string(), mimetype: z.string() }).optional(),
  polling: z.strictObject({ name: z.string(), options: z.array(z.string()) }).optional(),
  created: isoTime(),
}).meta({ id: 'ChannelMessage' }))

export const listOf = <S extends z.ZodType>(item: S, id: string) => z.strictObject({ docs: z.array(item) }).meta({ id })

export const channelPageSchema = z.strictObject({
  docs: z.array(channelMessageSchema).describe('Newest first, up to 100'),
  before: z.int().describe('Pass as `before` for the next page; 0 when there is none'),
}).meta({ id: 'ChannelMessagePage' })

export const viewLinkSchema = shapeOf<ViewLinkBody>()(z.strictObject({
  url: z.string().describe('The QR page with a view-only token in its fragment (`/#view=<token>`); give this, never the ' +
    '`session-id`, to whoever holds the phone. PUBLIC_URL sets its origin'),
  expiresAt: isoTime().describe('When the link stops working, at the latest (the end of the QR window); it stops ' +
    'earlier once the session is paired, reset or deleted'),
}).meta({ id: 'ViewLink' }))

export const qrViewSchema = shapeOf<QrViewBody>()(z.strictObject({
  qrcode: z.string().describe('QR image as base64 PNG without a `data:` prefix; empty before the first QR'),
  expiresAt: isoTime().describe('When the view link stops working, at the latest'),
}).meta({ id: 'QrView' }))

/** The ops endpoints (liveness and readiness probes). */
export const healthSchema = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Health' })
export const readySchema = z.strictObject({ status: z.literal('ready') }).meta({ id: 'Ready' })
export const notReadySchema = z.object({
  status: z.string().describe('Why the gateway is not ready yet, e.g. `starting`'),
}).meta({ id: 'NotReady' })
