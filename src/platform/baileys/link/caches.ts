/**
 * @module platform/baileys/link/caches
 * The link's per-socket caches and the socket events that keep them fresh: group metadata (Baileys reads it before
 * every group send through `cachedGroupMetadata`) and profile-picture URLs.
 */
import type { GroupMetadata, WASocket } from '@whiskeysockets/baileys'
import { PictureCache } from '../picture-cache.js'

export class LinkCaches {
  readonly groups = new Map<string, GroupMetadata>()
  readonly pictures: PictureCache

  constructor(pictureTtlMs: number) {
    this.pictures = new PictureCache(pictureTtlMs)
  }

  /** Subscribes to the events that add or invalidate entries. */
  wire(sock: WASocket): void {
    // a picture set or removed (`imgUrl: 'changed' | 'removed'`) makes the cached URL stale
    sock.ev.on('contacts.update', updates => {
      for (const u of updates) if (u.id && u.imgUrl) this.pictures.forget(u.id)
    })
    sock.ev.on('groups.upsert', groups => {
      for (const g of groups) this.groups.set(g.id, g)
    })
    sock.ev.on('groups.update', groups => {
      for (const g of groups) if (g.id) this.groups.delete(g.id)
    })
    sock.ev.on('group-participants.update', ({ id }) => this.groups.delete(id))
  }
}
