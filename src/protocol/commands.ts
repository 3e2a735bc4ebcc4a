/**
 * @module protocol/commands
 * The typed messages between the HTTP front end (main thread) and the session actors (worker threads).
 * A command names its session; the reply is `{ ok: true, value }` or `{ ok: false, error: WireError }`.
 * `ReplyValue<C>` ties each command to its result type, so the front end cannot read the wrong shape.
 */
import type { WireError } from './errors.js'
import type {
  Channel, ChannelPage, Destination, Group, GroupMember, MessageContent, StatusContent, TypingDestination, TypingKind,
} from './spec-types.js'

/** Commands that act on a session's platform link; the actor runs them one at a time, in arrival order. */
export type SessionCommand =
  | { type: 'sendMessage'; destination: Destination; content: MessageContent }
  | { type: 'postStatus'; content: StatusContent }
  | { type: 'typing'; destination: TypingDestination; kind: TypingKind }
  | { type: 'listGroups' }
  | { type: 'getGroup'; groupId: string }
  | { type: 'listMembers'; groupId: string }
  | { type: 'listChannels' }
  | { type: 'channelMessages'; channelId: string; before?: number }

/** Lifecycle commands, issued by the actor system itself. */
export type LifecycleCommand =
  | { type: 'start'; id: string } // create or restore the actor for a registered session
  | { type: 'reset' } // log out if paired, clear credentials, new QR, new QR deadline
  | { type: 'delete' } // log out if paired, delete everything
  | { type: 'shutdown' } // close sockets without logging out (SIGTERM)

export type Command = SessionCommand | LifecycleCommand

export interface ReplyValues {
  sendMessage: { messageId: string }
  postStatus: { statusId: string }
  typing: { id: string }
  listGroups: { docs: Group[] }
  getGroup: Group
  listMembers: { docs: GroupMember[] }
  listChannels: { docs: Channel[] }
  channelMessages: ChannelPage
  start: null
  reset: null
  delete: null
  shutdown: null
}

export type ReplyValue<C extends Command> = ReplyValues[C['type']]

export type Reply<T = unknown> = { ok: true; value: T } | { ok: false; error: WireError }

/** The task a shard's worker receives from piscina. */
export interface Task {
  sessionId: string // the session's `id` (not its secret)
  command: Command
}

/** Commands that need a connected session (checked by the actor after validation, spec order). */
export const NEEDS_CONNECTION: ReadonlySet<SessionCommand['type']> = new Set([
  'sendMessage', 'postStatus', 'typing', 'listGroups', 'getGroup', 'listMembers', 'listChannels', 'channelMessages',
])
