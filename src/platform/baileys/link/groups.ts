/**
 * @module platform/baileys/link/groups
 * Groups and profile pictures on an open link (BAILEYS-MAPPING §5): the participating groups with their pictures,
 * one group's metadata, its members named from the address book, and the account's own picture. Metadata fetched
 * here also feeds the cache Baileys reads before group sends; picture URLs are cached per TTL.
 */
import type { GroupMetadata, WASocket } from '@whiskeysockets/baileys'
import { GatewayError } from '../../../protocol/errors.js'
import type { Group, GroupMember } from '../../../protocol/spec-types.js'
import { isConnectionClosed } from '../boom.js'
import { addressBookIndex, mapGroup, mapGroupMembers } from '../mapping/group-mapping.js'
import { isLidJid } from '../mapping/jids.js'
import type { PlatformLink } from '../../link.js'
import { fetchPictureUrl, mapWithConcurrency } from '../picture-cache.js'
import { withTimeout } from '../query.js'
import type { LinkSocket } from './socket.js'

export type GroupOps = Pick<PlatformLink, 'listGroups' | 'getGroup' | 'listGroupMembers' | 'ownPicture'>

export function makeGroups(link: LinkSocket): GroupOps {
  const timeoutMs = link.settings.QUERY_TIMEOUT_MS
  const groupCache = link.caches.groups

  const picture = (sock: WASocket, jid: string): Promise<string> =>
    link.caches.pictures.get(jid, () => fetchPictureUrl(sock, jid, timeoutMs))

  /** Fresh metadata; an unknown group or one the account is not in is GROUP_NOT_FOUND. */
  async function groupMetadata(sock: WASocket, groupId: string): Promise<GroupMetadata> {
    try {
      const meta = await withTimeout(sock.groupMetadata(groupId), timeoutMs)
      if (!meta?.id) throw new GatewayError('GROUP_NOT_FOUND')
      groupCache.set(meta.id, meta)
      return meta
    } catch (err) {
      if (err instanceof GatewayError) throw err
      if (isConnectionClosed(err)) throw new GatewayError('SESSION_NOT_CONNECTED')
      link.log.debug({ err, groupId }, 'group metadata failed')
      throw new GatewayError('GROUP_NOT_FOUND')
    }
  }

  return {
    async listGroups(): Promise<Group[]> {
      const sock = link.requireOpen()
      const all = await withTimeout(sock.groupFetchAllParticipating(), timeoutMs)
      const metas = Object.values(all ?? {})
      for (const meta of metas) groupCache.set(meta.id, meta)
      return mapWithConcurrency(metas, link.settings.PICTURE_CONCURRENCY, async meta =>
        mapGroup(meta, await picture(sock, meta.id)),
      )
    },

    async getGroup(groupId: string): Promise<Group> {
      const sock = link.requireOpen()
      const meta = await groupMetadata(sock, groupId)
      return mapGroup(meta, await picture(sock, meta.id))
    },

    async listGroupMembers(groupId: string): Promise<GroupMember[]> {
      const sock = link.requireOpen()
      const meta = await groupMetadata(sock, groupId)
      const pnByLid = new Map<string, string>()
      for (const p of meta.participants) {
        if (!isLidJid(p.id) || p.phoneNumber) continue
        const pn = await sock.signalRepository.lidMapping.getPNForLID(p.id).catch(() => null)
        if (pn) pnByLid.set(p.id, pn)
      }
      const book = addressBookIndex(await link.options.contacts.all())
      return mapGroupMembers(
        meta.participants.map(p => ({
          id: p.id,
          ...(p.phoneNumber ? { phoneNumber: p.phoneNumber } : {}),
          ...(p.lid ? { lid: p.lid } : {}),
        })),
        book,
        lid => pnByLid.get(lid),
      )
    },

    async ownPicture(): Promise<string> {
      const sock = link.requireOpen()
      return picture(sock, link.ownJid(sock))
    },
  }
}
