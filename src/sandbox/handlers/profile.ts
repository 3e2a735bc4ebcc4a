/**
 * @module sandbox/handlers/profile
 * `w:profile:picture`: a URL on the media host when the world says the account or group has a picture, else 404.
 * URLs carry no `@` (the binary encoder would turn the attribute into a JID).
 *
 * Every answer costs a short round trip, as on the platform, and is counted in GET /stats (`pictureQueries`,
 * `pictureQueriesMaxInFlight`): that is how tests see whether a client caches pictures and bounds its concurrency.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { child, iqError, iqResult, node } from '../nodes.js'
import type { IqHandler } from './types.js'
import { worldAccount } from '../world.js'

/** Long enough that concurrent lookups overlap observably, short enough not to slow tests (200 pictures ≈ 1 s at 4). */
const PICTURE_ROUND_TRIP_MS = 20

export const pictureHandler: IqHandler = async (ctx, _conn, iq) => {
  if (iq.attrs.type !== 'get' || !child(iq, 'picture')) return iqResult(iq)
  const done = ctx.stats.begin('pictureQueries')
  try {
    await sleep(PICTURE_ROUND_TRIP_MS)
    const target = iq.attrs.target ?? iq.attrs.to ?? ''
    const world = ctx.world()
    let key: string | undefined
    if (target.endsWith('@g.us')) {
      if (world.groups.find(g => g.id === target)?.picture) key = `g-${target.split('@')[0]}`
    } else if (target.endsWith('@newsletter')) {
      if (world.channels.find(c => c.id === target)?.picture) key = `n-${target.split('@')[0]}`
    } else {
      const account = ctx.accounts.resolve(target)?.account
      if (account && worldAccount(world, account.phone)?.picture) key = `u-${account.phone}`
    }
    if (!key) return iqError(iq, 404, 'item-not-found')
    const directPath = `/pp/${key}.jpg`
    return iqResult(iq, [
      node('picture', {
        id: '1',
        type: child(iq, 'picture')?.attrs.type ?? 'preview',
        url: `https://${ctx.mediaHost()}${directPath}`,
        direct_path: directPath,
      }),
    ])
  } finally {
    // The reply is sent right after the handler returns; counting it as answered here is close enough.
    done()
  }
}
