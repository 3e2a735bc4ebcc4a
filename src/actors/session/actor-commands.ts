/**
 * @module actors/session/actor-commands
 * What each SessionCommand does on an open link, and the shape of its reply (`ReplyValues` in the protocol).
 * The actor has already checked the connection and holds the mailbox while this runs.
 */
import type { ReplyValues, SessionCommand } from '../../protocol/commands.js'
import type { PlatformLink } from '../../platform/link.js'
import type { TypingTimers } from './typing.js'

export interface CommandContext {
  sessionId: string
  link: PlatformLink
  typing: TypingTimers
  signal: AbortSignal
}

export async function runOnLink(
  command: SessionCommand,
  ctx: CommandContext,
): Promise<ReplyValues[SessionCommand['type']]> {
  const { link, signal } = ctx
  switch (command.type) {
    case 'sendMessage':
      return link.sendMessage(command.destination, command.content, signal)
    case 'postStatus':
      return link.postStatus(command.content, signal)
    case 'typing':
      await link.presence(command.destination, command.kind === 'audio' ? 'recording' : 'composing')
      ctx.typing.start(command.destination)
      return { id: ctx.sessionId }
    case 'listGroups':
      return { docs: await link.listGroups() }
    case 'getGroup':
      return link.getGroup(command.groupId)
    case 'listMembers':
      return { docs: await link.groupMembers(command.groupId) }
    case 'listChannels':
      return { docs: await link.listChannels() }
    case 'channelMessages':
      return link.channelMessages(command.channelId, command.before)
  }
}
