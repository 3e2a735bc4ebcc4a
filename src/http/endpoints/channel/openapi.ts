/**
 * @module http/endpoints/channel/openapi
 * GET /channel and GET /channel/message in the OpenAPI document, with their query and response bodies.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import type { Channel, ChannelMessage } from '../../../protocol/spec-types.js'
import { authenticated } from '../../openapi/operations.js'
import { isoTime, listOf, shapeOf } from '../../openapi/response-schemas.js'
import { AUTHENTICATED, ok, responses } from '../../openapi/responses.js'
import { CHANNEL_ID } from '../../schemas/ids.js'

const channelQuerySchema = z.object({
  channelId: z.string().regex(CHANNEL_ID).describe('Channel ID `<channel_id>@newsletter`'),
  before: z
    .int()
    .min(0)
    .optional()
    .describe(
      'The `before` of the previous page (a non-negative integer); absent for the newest page; 0 answers an empty last page',
    ),
})

const channelSchema = shapeOf<Channel>()(
  z
    .strictObject({
      id: z.string().describe('`<channel_id>@newsletter`'),
      name: z.string(),
      picture: z.string(),
      isOwner: z.boolean().describe('true if the account owns or administers the channel (only those accept messages)'),
      created: isoTime(),
    })
    .meta({ id: 'Channel' }),
)

const channelMessageSchema = shapeOf<ChannelMessage>()(
  z
    .strictObject({
      id: z.string(),
      serverId: z.number().describe('Sequence number in the channel; higher is newer'),
      url: z.string(),
      type: z.enum(['text', 'image', 'video', 'poll', 'sticker']),
      text: z.string().describe('Text or caption; `UNSUPPORTED TYPE` for types not yet supported'),
      image: z.strictObject({ url: z.string(), thumbnail: z.string(), mimetype: z.string() }).optional(),
      video: z
        .strictObject({ url: z.string(), thumbnail: z.string(), duration: z.number(), mimetype: z.string() })
        .optional(),
      sticker: z.strictObject({ url: z.string(), mimetype: z.string() }).optional(),
      polling: z.strictObject({ name: z.string(), options: z.array(z.string()) }).optional(),
      created: isoTime(),
    })
    .meta({ id: 'ChannelMessage' }),
)

const channelPageSchema = z
  .strictObject({
    docs: z
      .array(channelMessageSchema)
      .describe('Newest first, up to 100 (fewer when the page reached its byte bound)'),
    before: z.int().describe('Pass as `before` for the next page; 0 when there is none'),
  })
  .meta({ id: 'ChannelMessagePage' })

export const channelPaths: ZodOpenApiPathsObject = {
  '/channel': {
    get: authenticated({
      operationId: 'listChannels',
      tags: ['Channels'],
      summary: "List the account's channels",
      responses: responses(
        ok(listOf(channelSchema, 'ChannelList'), 'Every channel the account follows or owns'),
        ...AUTHENTICATED,
      ),
    }),
  },
  '/channel/message': {
    get: authenticated({
      operationId: 'listChannelMessages',
      tags: ['Channels'],
      summary: "Read a channel's history",
      description:
        "Newest first, up to 100 a page, and up to the gateway's CHANNEL_PAGE_MAX_BYTES of posts (a page may stop " +
        'early, always with at least one post); send the returned `before` as the next `before` until it is 0.',
      requestParams: { query: channelQuerySchema },
      responses: responses(ok(channelPageSchema, 'One page of messages'), ...AUTHENTICATED),
    }),
  },
}
