/**
 * @module protocol/read-answers
 * The answers of the reads whose size the platform's data decides (GET /group, /group/member, /group/:groupId,
 * /channel, /channel/message): each reply rebuilt with exactly the spec's fields, whatever the link sent, then
 * written as JSON. The session's shard thread does both (`readAnswerJson`) and hands the main thread the bytes,
 * transferred, not copied: a channel page is up to CHANNEL_PAGE_MAX_BYTES of JSON, and built on the main thread the
 * answers of a few dozen such reads hold up every other tenant's requests (bench/slow-readers.ts), while the main
 * thread now only writes bytes to sockets.
 *
 * @example
 * const bytes = await readAnswerJson({ type: 'listChannels' }, { docs: [channel] }) // '{"docs":[{"id":...}]}'
 */
import type { ReplyValue, ReplyValues, SessionCommand } from './commands.js'
import { jsonBytesYielding } from './json-pieces.js'
import type { Channel, ChannelMessage, ChannelPage, Group, GroupMember } from './spec-types.js'

export type ReadCommand = Extract<
  SessionCommand,
  { type: 'listGroups' | 'getGroup' | 'listGroupMembers' | 'listChannels' | 'listChannelMessages' }
>

const groupBody = (g: Group): Group => ({
  id: g.id,
  name: g.name,
  description: g.description,
  picture: g.picture,
  created: g.created,
})

const memberBody = (m: GroupMember): GroupMember => ({ id: m.id, name: m.name, phone: m.phone })

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

/** The spec's body of a read's reply. */
export function readAnswerBody(command: ReadCommand, reply: ReplyValue<ReadCommand>): unknown {
  switch (command.type) {
    case 'listGroups':
      return { docs: (reply as ReplyValues['listGroups']).docs.map(groupBody) }
    case 'getGroup':
      return groupBody(reply as Group)
    case 'listGroupMembers':
      return { docs: (reply as ReplyValues['listGroupMembers']).docs.map(memberBody) }
    case 'listChannels':
      return { docs: (reply as ReplyValues['listChannels']).docs.map(channelBody) }
    case 'listChannelMessages': {
      const page = reply as ChannelPage
      return { docs: page.docs.map(messageBody), before: page.before }
    }
  }
}

/** The spec's body of a read's reply as JSON bytes, in an ArrayBuffer of their own (transferable). */
export const readAnswerJson = (command: ReadCommand, reply: ReplyValue<ReadCommand>): Promise<Uint8Array> =>
  jsonBytesYielding(readAnswerBody(command, reply))
