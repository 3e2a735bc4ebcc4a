/**
 * @module sandbox/handlers/groups
 * `w:g2`: groups the account participates in and one group's metadata, from the world. A group with a participant
 * who hides their phone uses LID addressing (participants listed by LID; phone_number only for those who show it).
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { SandboxContext } from '../context.js'
import { child, iqError, iqResult, node } from '../nodes.js'
import type { WorldGroup } from '../types.js'
import type { IqHandler } from './types.js'

const seconds = (iso: string | undefined): string =>
  String(Math.floor((iso ? Date.parse(iso) : Date.now()) / 1000) || 0)

function groupNode(ctx: SandboxContext, group: WorldGroup): BinaryNode {
  const lidMode = group.participants.some(p => p.hidePhone)
  const creator = group.participants.find(p => p.admin === 'superadmin') ?? group.participants[0]
  const jidOf = (phone: string): string => {
    const account = ctx.accounts.ensure(phone)
    return lidMode ? account.lidJid : account.pnJid
  }
  const participants = group.participants.map(p => {
    const account = ctx.accounts.ensure(p.phone)
    const attrs: Record<string, string> = { jid: jidOf(p.phone) }
    if (p.admin) attrs.type = p.admin
    if (lidMode) {
      if (!p.hidePhone) attrs.phone_number = account.pnJid
    } else {
      attrs.lid = account.lidJid
    }
    return node('participant', attrs)
  })
  const created = seconds(group.created)
  const content: BinaryNode[] = []
  if (group.description) {
    content.push(
      node(
        'description',
        { id: `desc${created}`, t: created, ...(creator ? { participant: jidOf(creator.phone) } : {}) },
        [node('body', {}, group.description)],
      ),
    )
  }
  content.push(...participants)
  return node(
    'group',
    {
      id: group.id.split('@')[0] ?? group.id,
      subject: group.name,
      s_t: created,
      ...(creator ? { s_o: jidOf(creator.phone), creator: jidOf(creator.phone) } : {}),
      creation: created,
      size: String(group.participants.length),
      addressing_mode: lidMode ? 'lid' : 'pn',
    },
    content,
  )
}

export const groupsHandler: IqHandler = (ctx, conn, iq) => {
  const world = ctx.world()
  if (child(iq, 'participating')) {
    const phone = conn.account?.phone
    const mine = world.groups.filter(g => g.participants.some(p => p.phone === phone))
    return iqResult(iq, [
      node(
        'groups',
        {},
        mine.map(g => groupNode(ctx, g)),
      ),
    ])
  }
  if (child(iq, 'query')) {
    const group = world.groups.find(g => g.id === iq.attrs.to)
    if (!group) return iqError(iq, 404, 'item-not-found')
    // Only participants may read a group's metadata (the platform answers others with 403).
    if (!group.participants.some(p => p.phone === conn.account?.phone)) return iqError(iq, 403, 'forbidden')
    return iqResult(iq, [groupNode(ctx, group)])
  }
  // Changes (subject, participants, leave, create) are accepted without effect on the world.
  return iqResult(iq)
}
