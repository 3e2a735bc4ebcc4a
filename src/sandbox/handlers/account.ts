/**
 * @module sandbox/handlers/account
 * Small account-level iqs: keep-alive ping, passive/active, AB props, blocklist, privacy settings and tokens,
 * status privacy, dirty bits, media_conn, and device removal (logout).
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import { child, children, iqResult, node } from '../nodes.js'
import type { IqHandler } from './types.js'
import { worldAccount } from '../world.js'

export const pingHandler: IqHandler = (_ctx, _conn, iq) => iqResult(iq)
export const passiveHandler: IqHandler = (_ctx, _conn, iq) => iqResult(iq)
export const acceptHandler: IqHandler = (_ctx, _conn, iq) => iqResult(iq)

export const abPropsHandler: IqHandler = (_ctx, _conn, iq) =>
  iqResult(iq, [node('props', { protocol: '1', hash: 'sandbox', refresh: '86400' }, [])])

export const blocklistHandler: IqHandler = (_ctx, _conn, iq) => iqResult(iq, [node('list', {})])

const PRIVACY_DEFAULTS: Record<string, string> = {
  readreceipts: 'all',
  profile: 'all',
  status: 'contacts',
  online: 'all',
  last: 'all',
  groupadd: 'all',
  calladd: 'all',
  messages: 'all',
}

export const privacyHandler: IqHandler = (ctx, conn, iq) => {
  if (iq.attrs.type === 'get' && child(iq, 'privacy')) {
    const own = worldAccount(ctx.world(), conn.account?.phone)
    const values = { ...PRIVACY_DEFAULTS, status: own?.statusPrivacy?.setting ?? 'contacts' }
    return iqResult(iq, [
      node(
        'privacy',
        {},
        Object.entries(values).map(([name, value]) => node('category', { name, value })),
      ),
    ])
  }
  if (iq.attrs.type === 'set' && child(iq, 'tokens')) {
    ctx.stats.bump('privacyTokenIssues') // GET /stats: a client issuing its privacy token to contacts
    const tokens = children(child(iq, 'tokens'), 'token').map(t =>
      node('token', { jid: t.attrs.jid ?? '', t: t.attrs.t ?? '', type: 'trusted_contact' }),
    )
    return iqResult(iq, [node('tokens', {}, tokens)])
  }
  return iqResult(iq)
}

/** World settings by the phone's menu wording, as the wire names them (the wire names are accepted as is). */
const STATUS_LIST_TYPES: Record<string, 'contacts' | 'blacklist' | 'whitelist'> = {
  contacts: 'contacts',
  contacts_except: 'blacklist',
  only_share_with: 'whitelist',
  blacklist: 'blacklist',
  whitelist: 'whitelist',
}

/**
 * `<iq xmlns='status' type='get'><privacy/></iq>`: who sees this account's statuses, from the world. One list, the
 * one in force, marked `default`. List members are PN JIDs, or LID JIDs with `addressing: 'lid'`.
 */
export const statusHandler: IqHandler = (ctx, conn, iq) => {
  if (!child(iq, 'privacy')) return iqResult(iq)
  const privacy = worldAccount(ctx.world(), conn.account?.phone)?.statusPrivacy ?? {
    setting: 'contacts',
    list: [],
  }
  const type = STATUS_LIST_TYPES[privacy.setting] ?? 'contacts'
  const jidOf = (phone: string): string => {
    const digits = String(phone).replace(/\D/g, '')
    return privacy.addressing === 'lid' ? ctx.accounts.ensure(digits).lidJid : `${digits}@s.whatsapp.net`
  }
  const users: BinaryNode[] = (privacy.list ?? []).map(phone => node('user', { jid: jidOf(phone) }))
  return iqResult(iq, [node('privacy', {}, [node('list', { type, default: 'true' }, users)])])
}

export const mediaConnHandler: IqHandler = (ctx, _conn, iq) =>
  iqResult(iq, [
    node('media_conn', { auth: 'sandbox-media-auth', ttl: '300', auth_ttl: '21600', max_buckets: '12' }, [
      node('host', { hostname: ctx.mediaHost(), maxContentLengthBytes: String(100 * 1024 * 1024) }),
    ]),
  ])

/** `md`: `<remove-companion-device jid reason/>` (sock.logout) unlinks that device. */
export const mdHandler: IqHandler = (ctx, conn, iq) => {
  const remove = child(iq, 'remove-companion-device')
  if (remove) {
    const resolved = ctx.accounts.resolve(remove.attrs.jid ?? '')
    if (resolved && resolved.device !== 0) resolved.account.companions.delete(resolved.device)
    ctx.logger.info({ jid: remove.attrs.jid, by: conn.account?.phone }, 'companion device removed')
  }
  return iqResult(iq)
}
