/**
 * @module actors/session/commands
 * The one place that says what each command does, as the actor's mailbox runs it: refuse it if the session is
 * gone or the client hung up, run reset, delete, the pairing code and the proxy setting on the lifecycle, and every
 * other command on the open link (after the connection check, spec order: validation first, at the HTTP edge). A 1:1
 * send or typing passes the brake on new chats first (new-chat-brake.ts), and a sent one counts as a conversation. A
 * media send first waits for a download place, and the link takes a CPU slot for its work once the files are on
 * disk (media-slots.ts). Replies have the shapes of `ReplyValues` (protocol/commands.ts).
 */
import type { ActorCommandType, CommandOf, PairingCode, ReplyValues, SessionProxy } from '../../protocol/commands.js'
import { GatewayError } from '../../protocol/errors.js'
import type { MessageContent, StatusContent } from '../../protocol/spec-types.js'
import type { PlatformLink, SendOptions } from '../../platform/link.js'
import type { MediaSendBounds } from '../../media/media-slots.js'
import type { TypingTimers } from './typing.js'
import type { NewChatBrake } from './new-chat-brake.js'

/** The session as commands see it (SessionLifecycle). */
export interface CommandTarget {
  readonly id: string
  readonly stopped: boolean
  /** What a command gets once the session stopped: 404 after a delete, 503 after a shutdown or hand-over. */
  stopError(): GatewayError
  readonly isConnected: boolean
  readonly link: PlatformLink | undefined
  readonly typing: TypingTimers
  /** Refuses a new 1:1 chat while the platform restricts the account. */
  readonly brake: NewChatBrake
  /** The shard's bounds on media sends at once. */
  readonly media: MediaSendBounds
  reset(): Promise<null>
  delete(): Promise<null>
  /** A pairing code for `phone` once the platform registered it (the session must be awaiting pairing). */
  requestPairingCode(phone: string): Promise<PairingCode>
  /** The session's proxy as a client may see it, and changing it (the next connection takes it). */
  getSessionProxy(): SessionProxy
  setSessionProxy(proxy: string | null): Promise<SessionProxy>
}

/** What one command does, answering exactly its type's reply (`ReplyValues`: another shape does not compile). */
type CommandHandler<K extends ActorCommandType> = (
  command: CommandOf<K>,
  session: CommandTarget,
  signal: AbortSignal,
) => Promise<ReplyValues[K]>

/** The one map from a command's type to what it does; its reply type is `ReplyValues`' entry of the same type. */
export type CommandHandlers = { [K in ActorCommandType]: CommandHandler<K> }

const COMMANDS: CommandHandlers = {
  resetSession: (_, session) => session.reset(),
  deleteSession: (_, session) => session.delete(),
  getSessionProxy: async (_, session) => session.getSessionProxy(),
  setSessionProxy: (command, session) => session.setSessionProxy(command.proxy),
  async sendMessage(command, session, signal) {
    const link = connectedLink(session)
    const { destination, content } = command
    if (destination.kind !== 'phone')
      return asMediaSend(content, session, signal, options => link.sendMessage(destination, content, options))
    session.brake.check(destination.phone)
    const sent = await asMediaSend(content, session, signal, options => link.sendMessage(destination, content, options))
    session.brake.opened(destination.phone)
    return sent
  },
  postStatus(command, session, signal) {
    const link = connectedLink(session)
    return asMediaSend(command.content, session, signal, options => link.postStatus(command.content, options))
  },
  async sendTyping(command, session) {
    const link = connectedLink(session)
    // typing to someone new is a reach-out too
    if (command.destination.kind === 'phone') session.brake.check(command.destination.phone)
    await link.sendTyping(command.destination, command.kind === 'audio' ? 'recording' : 'composing')
    session.typing.start(command.destination)
    return { id: session.id }
  },
  listGroups: async (_, session) => ({ docs: await connectedLink(session).listGroups() }),
  getGroup: (command, session) => connectedLink(session).getGroup(command.groupId),
  listGroupMembers: async (command, session) => ({
    docs: await connectedLink(session).listGroupMembers(command.groupId),
  }),
  listChannels: async (_, session) => ({ docs: await connectedLink(session).listChannels() }),
  listChannelMessages: (command, session) =>
    connectedLink(session).listChannelMessages(command.channelId, command.before),
  requestPairingCode: (command, session) => session.requestPairingCode(command.phone),
}

/**
 * Runs `command` on the session: refused once the session stopped or the client hung up. Called in its mailbox turn
 * (mailbox.ts runs jobs in a `then`), where what it throws becomes the command's rejection; not `async`, so a
 * command costs no promise beyond its handler's.
 */
export function runCommand<K extends ActorCommandType>(
  command: CommandOf<K>,
  session: CommandTarget,
  signal: AbortSignal,
): Promise<ReplyValues[K]> {
  if (session.stopped) throw session.stopError()
  // The client hung up while this waited in the mailbox: nobody is left to read the result.
  if (signal.aborted) throw new GatewayError('INTERNAL', { cause: 'request aborted by the client' })
  const handler: CommandHandler<K> = COMMANDS[command.type]
  return handler(command, session, signal)
}

/** The open link of a connected session; SESSION_NOT_CONNECTED otherwise. */
function connectedLink(session: CommandTarget): PlatformLink {
  const link = session.link
  if (!session.isConnected || !link) throw new GatewayError('SESSION_NOT_CONNECTED')
  return link
}

const MEDIA_TYPES: ReadonlySet<string> = new Set(['image', 'video', 'audio', 'document'])

/**
 * A message or status with a file (the gateway downloads, encrypts and uploads it) holds a download place, one per
 * session and `MEDIA_DOWNLOADS_PER_PROCESS` in the process, until its files are removed; the link runs its CPU work
 * in the shard's media slots, taken only once the files are on disk (media-slots.ts).
 */
async function asMediaSend<T>(
  content: MessageContent | StatusContent,
  session: CommandTarget,
  signal: AbortSignal,
  send: (options: SendOptions) => Promise<T>,
): Promise<T> {
  if (!MEDIA_TYPES.has(content.type)) return send({ signal })
  const { downloads, cpu } = session.media
  return downloads.run(() => send({ signal, inMediaSlot: work => cpu.run(work, signal) }), signal, session.id)
}
