/**
 * @module protocol/commands
 * The commands the HTTP front end (main thread) sends to a session's actor (its shard's worker thread), and what
 * each one answers. `ReplyValues` is the one map from a command's type to its result: the actor's handlers are
 * typed by it (a handler that answers another shape does not compile: actors/session/commands.ts), and `ReplyValue<C>`
 * is what the front end gets back, so it cannot read the wrong shape. How they travel (task envelope, replies,
 * aborts) is the thread contract, `thread.ts`.
 */
import type {
  Channel,
  ChannelPage,
  Destination,
  Group,
  GroupMember,
  MessageContent,
  StatusContent,
  TypingDestination,
  TypingKind,
} from './spec-types.js'

/** A pairing code the platform registered, and until when it works (epoch ms). */
export interface PairingCode {
  /** `ABCD-EFGH`: what the phone's user types under "Link with phone number". */
  code: string
  expiresAt: number
}

/**
 * Commands that act on a session's platform link; each needs a connected session (checked after validation), but
 * `pairingCode`, which needs one awaiting pairing.
 */
export type SessionCommand =
  | { type: 'sendMessage'; destination: Destination; content: MessageContent }
  | { type: 'postStatus'; content: StatusContent }
  | { type: 'sendTyping'; destination: TypingDestination; kind: TypingKind }
  | { type: 'listGroups' }
  | { type: 'getGroup'; groupId: string }
  | { type: 'listGroupMembers'; groupId: string }
  | { type: 'listChannels' }
  | { type: 'listChannelMessages'; channelId: string; before?: number }
  | { type: 'requestPairingCode'; phone: string } // phone: digits only

/** Lifecycle commands, issued by the session system itself; they need no connection. */
export type LifecycleCommand =
  | { type: 'resetSession' } // log out if paired, clear credentials, new QR, new QR deadline
  | { type: 'deleteSession' } // log out if paired, delete everything

/** The session's own settings, kept with its record (docs/api.md: A proxy per session); they need no connection. */
export type SettingCommand = { type: 'getSessionProxy' } | { type: 'setSessionProxy'; proxy: string | null } // the URL in full (checked by the HTTP edge), or null: remove it

/** What a client's request may run on its session (`SessionSystem.run`). */
export type ClientCommand = SessionCommand | SettingCommand

/** Everything an actor's mailbox runs. */
export type ActorCommand = SessionCommand | LifecycleCommand | SettingCommand

/**
 * The proxy a session's next connection goes through, as a client may see it: `proxy` without its password
 * (`socks5://alice:***@proxy.example:1080`), and whose it is: the session's own, the operator's default
 * (SESSION_PROXY_DEFAULT, its address not shown: `proxy` null), or none.
 */
export interface SessionProxy {
  proxy: string | null
  source: 'session' | 'default' | 'none'
}

export interface ReplyValues {
  sendMessage: { messageId: string }
  postStatus: { statusId: string }
  sendTyping: { id: string }
  listGroups: { docs: Group[] }
  getGroup: Group
  listGroupMembers: { docs: GroupMember[] }
  listChannels: { docs: Channel[] }
  listChannelMessages: ChannelPage
  requestPairingCode: PairingCode
  resetSession: null
  deleteSession: null
  getSessionProxy: SessionProxy
  setSessionProxy: SessionProxy
}

/** The type of every command a mailbox runs (each is a key of `ReplyValues`, or `ReplyValue` does not compile). */
export type ActorCommandType = ActorCommand['type']

/** The command of one type (`CommandOf<'getGroup'>` is `{ type: 'getGroup'; groupId: string }`). */
export type CommandOf<K extends ActorCommandType> = Extract<ActorCommand, { type: K }>

export type ReplyValue<C extends ActorCommand> = ReplyValues[C['type']]
