/**
 * @module actors/session/run-command
 * One command as the actor's mailbox runs it: refuse it if the session is gone or the client hung up, route
 * reset/delete to the lifecycle, check the connection for commands that need one (NEEDS_CONNECTION), then hand
 * it to the link (`runOnLink` in actor-commands.ts).
 */
import type { LifecycleCommand, SessionCommand } from '../../protocol/commands.js'
import { NEEDS_CONNECTION } from '../../protocol/commands.js'
import { GatewayError } from '../../protocol/errors.js'
import type { PlatformLink } from '../../platform/link.js'
import { runOnLink } from './actor-commands.js'
import type { MediaSlots } from '../../media/media-slots.js'
import type { TypingTimers } from './typing.js'

/** What an actor's `run` accepts: start and shutdown are the host's business, not the mailbox's. */
export type ActorCommand = SessionCommand | Exclude<LifecycleCommand, { type: 'start' | 'shutdown' }>

/** The session as commands see it (SessionLifecycle). */
export interface CommandTarget {
  readonly id: string
  readonly stopped: boolean
  readonly isConnected: boolean
  readonly link: PlatformLink | undefined
  readonly typing: TypingTimers
  /** The shard's bound on media sends at once. */
  readonly media: Pick<MediaSlots, 'acquire'>
  reset(): Promise<null>
  delete(): Promise<null>
}

export async function runCommand(command: ActorCommand, session: CommandTarget, signal: AbortSignal): Promise<unknown> {
  if (session.stopped) throw new GatewayError('SESSION_NOT_FOUND')
  // The client hung up while this waited in the mailbox: nobody is left to read the result.
  if (signal.aborted) throw new GatewayError('INTERNAL', 'request aborted by the client')
  if (command.type === 'reset') return session.reset()
  if (command.type === 'delete') return session.delete()
  const link = session.link
  if (NEEDS_CONNECTION.has(command.type) && (!session.isConnected || !link)) {
    throw new GatewayError('SESSION_NOT_CONNECTED')
  }
  const ctx = { sessionId: session.id, link: link!, typing: session.typing, signal }
  if (!carriesMedia(command)) return runOnLink(command, ctx)
  // A media send waits for a place among the shard's and the process's media sends (media-slots.ts).
  const release = await session.media.acquire(signal)
  try {
    return await runOnLink(command, ctx)
  } finally {
    release()
  }
}

const MEDIA_TYPES: ReadonlySet<string> = new Set(['image', 'video', 'audio', 'document'])

/** A message or status with a file: the gateway downloads, encrypts and uploads it. */
const carriesMedia = (command: ActorCommand): boolean =>
  (command.type === 'sendMessage' || command.type === 'postStatus') && MEDIA_TYPES.has(command.content.type)
