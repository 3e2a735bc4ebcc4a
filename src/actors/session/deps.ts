/**
 * @module actors/session/deps
 * What the shard's host gives each session actor: its record, the stores, the link factory, and where to report.
 */
import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import type { LinkFactory, SandboxTrust } from '../../platform/link.js'
import type { SessionRecord, Store } from '../../storage/types.js'
import type { MediaSlots } from '../../media/media-slots.js'
import type { SnapshotPublisher } from '../worker/publisher.js'

export interface ActorDeps {
  record: SessionRecord
  store: Store
  createLink: LinkFactory
  config: Config
  logger: Logger
  publisher: SnapshotPublisher
  sandbox: () => Promise<SandboxTrust | undefined>
  /** The shard's bound on media sends at once, shared by its sessions. */
  media: MediaSlots
  /** Called once the session is deleted, so the host forgets the actor. */
  onDeleted: (id: string) => void
}
