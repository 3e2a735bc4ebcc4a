/**
 * @module sandbox/handlers/usync
 * `xmlns='usync'`: device lists, LID mapping, on-platform checks (contact), status text and disappearing mode for
 * the users asked about. Non-zero devices carry `key-index`, or Baileys silently drops them.
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../accounts.js'
import { bytes, child, children, iqResult, node, unixNow } from '../nodes.js'
import type { IqHandler } from './types.js'

const digits = (s: string): string => s.replace(/\D/g, '')

function protocolNode(protocol: string, account: Account | undefined, byLid: boolean): BinaryNode | undefined {
  switch (protocol) {
    case 'devices':
      if (!account) return node('devices', {}, [node('device-list', {}, [])])
      return node('devices', {}, [
        node(
          'device-list',
          {},
          account
            .deviceIds()
            .map(id =>
              node(
                'device',
                id === 0
                  ? { id: '0' }
                  : { id: String(id), 'key-index': String(account.companions.get(id)?.keyIndex ?? id) },
              ),
            ),
        ),
        node('key-index-list', { ts: unixNow() }, Buffer.alloc(0)),
      ])
    case 'lid':
      // the mapping answers a phone-number query; a user asked for by LID already is one
      return account && !byLid ? node('lid', { val: account.lidJid }) : node('lid', {})
    case 'contact':
      return node('contact', { type: account ? 'in' : 'out' })
    case 'status':
      return node('status', { t: unixNow() }, account ? 'Hey there! I am using the sandbox.' : '')
    case 'disappearing_mode':
      return node('disappearing_mode', { duration: '0', t: '0' })
    default:
      return undefined
  }
}

export const usyncHandler: IqHandler = (ctx, _conn, iq) => {
  const usync = child(iq, 'usync')
  const protocols = children(child(usync, 'query')).map(q => q.tag)
  const users: BinaryNode[] = []
  for (const user of children(child(usync, 'list'), 'user')) {
    // A user is named by jid, or (phone lookups) by a <contact>+1555…</contact> child.
    const contactQuery = bytes(child(user, 'contact'))?.toString('utf8')
    let jid = user.attrs.jid
    if (!jid && contactQuery) jid = `${digits(contactQuery)}@s.whatsapp.net`
    if (!jid) continue
    let resolved = ctx.accounts.resolve(jid)
    const pnUser = jid.endsWith('@s.whatsapp.net') ? digits(jid.split('@')[0]?.split(':')[0] ?? '') : ''
    if (!resolved && ctx.autoRegister && pnUser) resolved = { account: ctx.accounts.ensure(pnUser), device: 0 }
    const byLid = ctx.lidDeviceAnswers && jid.endsWith('@lid')
    const content = protocols.map(p => protocolNode(p, resolved?.account, byLid)).filter((n): n is BinaryNode => !!n)
    // Answered under the JID asked for, as the platform does: Baileys caches a device list under the user part it
    // asked with, so a LID query answered with the phone number missed that cache on every send and made Baileys
    // re-fetch devices and force new Signal sessions each time.
    users.push(node('user', { jid: resolved && !byLid ? resolved.account.pnJid : jid }, content))
  }
  return iqResult(iq, [node('usync', { ...(usync?.attrs ?? {}) }, [node('result', {}), node('list', {}, users)])])
}
