/**
 * @module sandbox/handlers
 * The iq handler table, keyed by xmlns.
 */
import type { AppStateKeys } from '../app-state.js'
import { makeAppStateHandler } from '../app-state.js'
import type { ChannelStore } from '../channels.js'
import type { LinkCodeRegistry } from '../link-code.js'
import { child } from '../nodes.js'
import {
  abPropsHandler,
  acceptHandler,
  blocklistHandler,
  mdHandler,
  mediaConnHandler,
  passiveHandler,
  pingHandler,
  privacyHandler,
  statusHandler,
} from './account.js'
import { makeNewsletterHandler, mexHandler } from './channels.js'
import { encryptHandler } from './encrypt.js'
import { groupsHandler } from './groups.js'
import { pictureHandler } from './profile.js'
import type { IqHandler } from './types.js'
import { usyncHandler } from './usync.js'

export function makeIqHandlers(
  appState: AppStateKeys,
  channels: ChannelStore,
  linkCodes: LinkCodeRegistry,
): Record<string, IqHandler> {
  return {
    'w:p': pingHandler,
    passive: passiveHandler,
    encrypt: encryptHandler,
    usync: usyncHandler,
    // `md` also carries pairing by code (link-code.ts)
    md: (ctx, conn, iq) => {
      const linkCode = child(iq, 'link_code_companion_reg')
      return linkCode ? linkCodes.onIq(conn, iq, linkCode) : mdHandler(ctx, conn, iq)
    },
    abt: abPropsHandler,
    blocklist: blocklistHandler,
    privacy: privacyHandler,
    status: statusHandler,
    'w:m': mediaConnHandler,
    'w:profile:picture': pictureHandler,
    'w:g2': groupsHandler,
    // the account's restrictions are mex queries too (restrictions.ts)
    'w:mex': (ctx, conn, iq) => ctx.restrictions.answerQuery(conn.account?.phone, iq) ?? mexHandler(ctx, conn, iq),
    newsletter: makeNewsletterHandler(channels),
    'w:sync:app:state': makeAppStateHandler(appState),
    'urn:xmpp:whatsapp:dirty': acceptHandler,
    'w:stats': acceptHandler,
  }
}
