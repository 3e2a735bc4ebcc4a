/**
 * @module platform/link
 * The narrow interface between a session actor and the platform. One `PlatformLink` wraps one platform socket
 * (one Baileys `makeWASocket`); it is not reusable after it closes: the actor decides whether to reconnect and
 * then asks the factory for a new link with the same stores.
 *
 * A shard worker loads the platform by module path (`PlatformModule`): the Baileys adapter is
 * `baileys/baileys-link.ts`; actor tests load a fake that exports only a `LinkFactory`. Actors import this file
 * and nothing under `baileys/`.
 */
import type { Logger } from 'pino'
import type { PairingCode } from '../protocol/commands.js'
import type {
  Channel,
  ChannelPage,
  Destination,
  Group,
  GroupMember,
  MessageContent,
  StatusContent,
  TypingDestination,
} from '../protocol/spec-types.js'
import type { SentMessageStore } from '../storage/sent-messages.js'
import type { AuthStore, ContactStore } from '../storage/types.js'
import type { ProxyRoute } from '../proxy/proxy-url.js'
import type { LinkSettings } from './settings.js'
import type { InMediaSlot } from '../media/media-slots.js'
import type { RestrictionUpdate } from '../protocol/restrictions.js'
import type { ClientVersion } from './client-version.js'

export type { ProxyRoute }

/** Why a socket closed, reduced to what the actor's state machine needs. */
export type CloseReason =
  | 'restart-required' // 515 after pairing (or later): reconnect at once, no visible change
  | 'logged-out' // 401/419: the phone unlinked the device; clear credentials, back to awaiting QR
  | 'qr-expired' // the platform's QR refs ran out before a scan
  | 'replaced' // 440: another socket uses these credentials; do not reconnect in a loop
  | 'closed-by-us' // close() or logout() was called
  | 'client-version-refused' // 405 at login: the platform refuses this web client version; relearn, reconnect
  | 'proxy-refused' // the session's proxy refused or failed the connection (or the gateway's policy refused it)
  | 'account-refused' // 402/403 at login: the platform refuses the account (banned or restricted); as logged out
  | 'connection-lost' // anything else: reconnect with backoff

export interface LinkEvents {
  /** A new QR string (the latest one must be shown). */
  qr(qr: string): void
  /** Pairing succeeded: the device id is known (`<number>:<device>@s.<platform>.net`). A 515 restart follows. */
  paired(me: { id: string; lid?: string; name?: string }): void
  /** Logged in and usable. */
  open(me: { id: string; lid?: string; name: string }): void
  /** The account's display name became known or changed. */
  name(name: string): void
  /** The socket ended; the link is dead. */
  close(reason: CloseReason, detail: string): void
  /** The platform told the account's restrictions (read when the link opens, its notifications, after a 463). */
  restrictions(update: RestrictionUpdate): void
  /** Numbers (digits) the account has 1:1 chats with, as messages and the platform's chat lists show them. */
  conversations(phones: string[]): void
}

/** Trust material for the loopback sandbox (GET /trust of the sandbox control API). */
export interface SandboxTrust {
  wsUrl: string
  rootPublicKey: string // base64
  caCert: string // PEM
}

export interface LinkOptions {
  /** The session's public id (never its secret). */
  id: string
  auth: AuthStore
  contacts: ContactStore
  /** Sent messages kept to answer retry receipts after a restart (link/retry-messages.ts); absent: only Baileys'
   * own 5-minute memory answers them. */
  sentMessages?: SentMessageStore
  logger: Logger
  /** What the link reads of the settings, and nothing else (./settings.ts). */
  settings: LinkSettings
  /** Set when the gateway runs against the sandbox (SANDBOX_URL); absent for the real platform. */
  sandbox?: SandboxTrust
  /** The proxy the link's connections go through (the platform socket, media uploads; media downloads where
   * SESSION_PROXY_MEDIA_DOWNLOADS allows); absent: direct. */
  proxy?: ProxyRoute
  /** The web client version the link tells the platform (client-version-keeper.ts); absent: the library's own. */
  clientVersion?: ClientVersion
  events: LinkEvents
  /**
   * Cluster mode: false once this node may no longer hold the session's lease; the link then writes nothing more
   * to the platform and closes. Absent: always true.
   */
  mayWrite?: () => boolean
}

export type { InMediaSlot }

/** How the actor runs a send (`sendMessage`, `postStatus`). */
export interface SendOptions {
  /** The client hung up: downloads and waits stop. */
  signal?: AbortSignal
  /**
   * Given for a send with a file: the link downloads first, then runs each piece of CPU work through it, never a
   * download or a wait for the platform (src/media/media-slots.ts). Absent: the work runs at once.
   */
  inMediaSlot?: InMediaSlot
}

/**
 * Operations on an open link. Each throws a `GatewayError` (protocol/error-table.ts) on failure
 * (e.g. MEDIA_DOWNLOAD_FAILED, PLATFORM_REJECTED, PLATFORM_TIMEOUT, GROUP_NOT_FOUND, CHANNEL_NOT_FOUND,
 * CONTACTS_NOT_SYNCED, STATUS_ONLY_SHARE_EMPTY, CHANNEL_NOT_OWNED).
 */
export interface PlatformLink {
  /** Downloads media itself, sends, and resolves only after the platform server acknowledged the message. */
  sendMessage(destination: Destination, content: MessageContent, options?: SendOptions): Promise<{ messageId: string }>
  /** Reads the account's status privacy, picks recipients, sends, waits for the ack. */
  postStatus(content: StatusContent, options?: SendOptions): Promise<{ statusId: string }>
  /** Sends a chat state to a phone or group. The actor schedules 'paused' after TYPING_MS. */
  sendTyping(destination: TypingDestination, state: 'composing' | 'recording' | 'paused'): Promise<void>
  listGroups(): Promise<Group[]>
  getGroup(groupId: string): Promise<Group>
  listGroupMembers(groupId: string): Promise<GroupMember[]>
  listChannels(): Promise<Channel[]>
  listChannelMessages(channelId: string, before?: number): Promise<ChannelPage>
  /** The account's own profile picture URL, or '' when there is none. */
  ownPicture(): Promise<string>
  /**
   * Pairing by code: registers a code for `phone` (digits) with the platform, for a link that is registering (it got
   * its QR refs), and resolves only once the platform accepted it, with the code (`ABCD-EFGH`) and when it stops
   * working (this link's registration ends, or the code's own lifetime). Throws PAIRING_CODE_NOT_NEEDED,
   * SESSION_CONNECTING (not registering, or not yet), PAIRING_CODE_REFUSED, PLATFORM_TIMEOUT and
   * PAIRING_CODE_CONNECTION_LOST.
   */
  requestPairingCode(phone: string): Promise<PairingCode>
  /** Unlinks the device on the platform, then closes (close reason 'closed-by-us'). */
  logout(): Promise<void>
  /** Closes the socket without logging out (restart, SIGTERM). Idempotent. */
  close(): Promise<void>
}

export type LinkFactory = (options: LinkOptions) => PlatformLink

/**
 * What the module a shard worker loads by path exports (`ShardWorkerData.linkModule`). Only the factory is
 * required, as `createLink`, `createBaileysLink` or the default export; a module without the hooks gets no patches,
 * no sandbox trust and a session run that keeps nothing.
 */
export interface PlatformModule {
  createLink: LinkFactory
  /** Once per worker thread, when the module is loaded, before any link: process-wide patches of the platform library. */
  installPatches?: (logger: Logger) => void
  /** Reads the loopback sandbox's trust material (SANDBOX_URL; GET /trust of its control API). */
  fetchSandboxTrust?: (sandboxUrl: string) => Promise<SandboxTrust>
  /** Looks up the platform's current web client version (the sandbox's, given SANDBOX_URL). Absent: the links use
   * whatever version the module's library bundles, unless PLATFORM_CLIENT_VERSION pins one. */
  lookupClientVersion?: (sandboxUrl: string | undefined) => Promise<ClientVersion>
  /** What keeps one session's stored platform state usable across unclean stops (one per actor, kept across its links). */
  createSessionRun?: (auth: AuthStore, log: Logger) => SessionRun
  /** Once per worker thread, after its sessions are shut down: ends what the module holds for the thread (its pools). */
  closeThread?: () => Promise<void>
}

/** Keeps a session's stored state usable after a crash: the platform knows which of it a crash leaves suspect. */
export interface SessionRun {
  /** Before each link opens: the auth store to give it (after an unclean stop, one that renews suspect state). */
  authForLink(): Promise<AuthStore>
  /** After a clean stop (link closed, every command settled): the next start may trust the stored state. */
  release(): Promise<void>
  /**
   * After a stop whose commands did not settle in time: nothing is recorded (the next start, here or on another
   * node, takes the unclean-stop path), but whatever the run holds (cluster mode: the session's
   * lease) is given back. Absent: nothing to give back.
   */
  abandon?(): Promise<void>
  /**
   * Before the session's data is removed while no link is open (its QR deadline passed while it was down): takes
   * what its writes need (cluster mode: the session's lease). Throws an error with code `LEASE_HELD` when another
   * node runs the session: then nothing here may remove it. Absent: nothing to take.
   */
  claim?(): Promise<void>
}
