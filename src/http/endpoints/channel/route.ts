/**
 * @module http/endpoints/channel/route
 * GET /channel and GET /channel/message?channelId=&before=.
 */
import { type Request, Router } from 'express'
import type { Channel, ChannelMessage } from '../../../protocol/spec-types.js'
import type { AppDeps } from '../../deps.js'
import { sessionRoute } from '../../session-route.js'
import { parseChannelQuery } from './schema.js'

const channelBody = (c: Channel): Channel => ({
  id: c.id,
  name: c.name,
  picture: c.picture,
  isOwner: c.isOwner,
  created: c.created,
})

/** Each media object is rebuilt with exactly its spec fields; objects absent for the type stay absent. */
function messageBody(m: ChannelMessage): ChannelMessage {
  const body: ChannelMessage = {
    id: m.id,
    serverId: m.serverId,
    url: m.url,
    type: m.type,
    text: m.text,
    created: m.created,
  }
  if (m.image) body.image = { url: m.image.url, thumbnail: m.image.thumbnail, mimetype: m.image.mimetype }
  if (m.video) {
    body.video = {
      url: m.video.url,
      thumbnail: m.video.thumbnail,
      duration: m.video.duration,
      mimetype: m.video.mimetype,
    }
  }
  if (m.sticker) body.sticker = { url: m.sticker.url, mimetype: m.sticker.mimetype }
  if (m.polling) body.polling = { name: m.polling.name, options: [...m.polling.options] }
  return body
}

export function channelRoutes(deps: AppDeps): Router {
  const { system } = deps
  const router = Router()
  // the answers' size is the platform's data: under the process's answer budget (answers/answer-budget.ts)
  const read = { rate: 'read', largeAnswer: true } as const

  router.get(
    '/channel',
    sessionRoute(deps, read, async ({ session, signal, answered }) => {
      const reply = await system.run(session.id, { type: 'listChannels' }, signal, answered)
      return { docs: reply.docs.map(channelBody) }
    }),
  )

  const parse = (req: Request) => parseChannelQuery(req.query as Record<string, unknown>)
  router.get(
    '/channel/message',
    sessionRoute(deps, { ...read, parse }, async ({ session, input: query, signal, answered }) => {
      // before=0 is past the oldest post: the empty last page, without asking the platform.
      if (query.before === 0) return { docs: [], before: 0 }
      const reply = await system.run(session.id, { type: 'listChannelMessages', ...query }, signal, answered)
      return { docs: reply.docs.map(messageBody), before: reply.before }
    }),
  )

  return router
}
