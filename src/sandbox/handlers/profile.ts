/**
 * @module sandbox/handlers/profile
 * `w:profile:picture`: a URL on the media host when the world says the account or group has a picture, else 404.
 * URLs carry no `@` (the binary encoder would turn the attribute into a JID).
 */
import { child, iqError, iqResult, node } from '../nodes.js'
import type { IqHandler } from './types.js'

export const pictureHandler: IqHandler = (ctx, _conn, iq) => {
  if (iq.attrs.type !== 'get' || !child(iq, 'picture')) return iqResult(iq)
  const target = iq.attrs.target ?? iq.attrs.to ?? ''
  const world = ctx.world()
  let key: string | undefined
  if (target.endsWith('@g.us')) {
    if (world.groups.find((g) => g.id === target)?.picture) key = `g-${target.split('@')[0]}`
  } else if (target.endsWith('@newsletter')) {
    if (world.channels.find((c) => c.id === target)?.picture) key = `n-${target.split('@')[0]}`
  } else {
    const account = ctx.accounts.resolve(target)?.account
    if (account && world.accounts.find((a) => a.phone === account.phone)?.picture) key = `u-${account.phone}`
  }
  if (!key) return iqError(iq, 404, 'item-not-found')
  const directPath = `/pp/${key}.jpg`
  return iqResult(iq, [node('picture', { id: '1', type: child(iq, 'picture')?.attrs.type ?? 'preview', url: `https://${ctx.mediaHost()}${directPath}`, direct_path: directPath })])
}
