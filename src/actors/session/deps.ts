/**
 * @module actors/session/deps
 * What the shard's host gives each session actor: its record, the stores, the platform, and where to report.
 */
import type { Logger } from 'pino'
import type { LinkFactory, SessionRun, SandboxTrust } from '../../platform/link.js'
import type { ClientVersionSource } from '../../platform/client-version-keeper.js'
import type { AuthStore, SessionRecord, Store } from '../../storage/types.js'
import type { MediaSendBounds } from '../../media/media-slots.js'
import type { SnapshotPublisher } from '../worker/publisher.js'
import type { SessionPolicy } from '../../protocol/session-policy.js'
import type { LinkSettings } from '../../platform/settings.js'
import type { StorageSettings } from '../../storage/settings.js'
import type { ActorSettings } from '../settings.js'

/** What a session's actor reads of the settings: the actors' slice, what its links read, its retry store's size. */
export type SessionSettings = ActorSettings & LinkSettings & Pick<StorageSettings, 'RETRY_STORE_MAX_MESSAGES'>

/** The platform as a shard's actors use it (loaded from a `PlatformModule` by the worker's platform-loader.ts). */
export interface ShardPlatform {
  createLink: LinkFactory
  /** The sandbox's trust material when SANDBOX_URL is set, else undefined (fetched once per thread). */
  sandboxTrust: () => Promise<SandboxTrust | undefined>
  /** The web client version the thread's links tell the platform (pinned, learned, or the library's own). */
  clientVersion: ClientVersionSource
  /** One per actor: keeps the session's stored state usable across unclean stops (and, in cluster mode, its links
   * under the session's lease: cluster/store/leased-runs.ts). */
  createSessionRun: (id: string, auth: AuthStore, log: Logger) => SessionRun
}

export interface ActorDeps {
  record: SessionRecord
  store: Store
  platform: ShardPlatform
  settings: SessionSettings
  logger: Logger
  publisher: SnapshotPublisher
  /** The shard's bounds on media sends at once, shared by its sessions. */
  media: MediaSendBounds
  /** One process, or a cluster node (protocol/session-policy.ts). */
  policy: SessionPolicy
  /** Called once the session is deleted, so the host forgets the actor. */
  onDeleted: (id: string) => void
}
