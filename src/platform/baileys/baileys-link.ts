/**
 * @module platform/baileys/baileys-link
 * The Baileys 7 implementation of PlatformLink: one `makeWASocket` per link, never reused. Built in layers, as
 * Baileys builds its own socket (`src/Socket/`: socket → chats → groups → messages-send, each extending the one
 * below), one file per concern under `link/`:
 *
 * - `link/socket.ts`: `LinkSocket`, the link's base layer around Baileys' socket (`sock`, Baileys' word): its
 *   settings and sandbox trust, credentials, connection events → LinkEvents, close/logout. The layers above are
 *   handed it as `link` and ask it for the open socket;
 * - `link/groups.ts`: groups, members and profile pictures;
 * - `link/channels.ts`: the account's channels and channel history;
 * - `link/messages.ts`: sends (channel posts included) that wait for the server ack, and typing;
 * - `link/status.ts`: status posts relayed in batches;
 * - `link/pairing-code.ts`: pairing by code, answered once the platform registered the code.
 *
 * Spec shapes ⇄ Baileys, as pure functions, are in `mapping/` (and `close-reason.ts`); the platform's media recipes
 * in `media/`; the fixes to Baileys and libsignal in `patches/`. The shard worker imports this module by path (a
 * `PlatformModule`, platform/link.ts): the factory, and the adapter's hooks: the libsignal console patch, the
 * sandbox trust fetch, the web client version lookup, the session run of signal recovery.
 */
import type { LinkFactory, PlatformLink } from '../link.js'
import { makeChannels } from './link/channels.js'
import { makeGroups } from './link/groups.js'
import { makeMessages } from './link/messages.js'
import { makePairingCode } from './link/pairing-code.js'
import { LinkSocket } from './link/socket.js'
import { makeStatus } from './link/status.js'

export { STATUS_BATCH_SIZE } from './link/status.js'
export { routeLibsignalConsole as installPatches } from './patches/libsignal-console.js'
export { fetchSandboxTrust } from './sandbox-trust.js'
export { lookupClientVersion } from './client-version-lookup.js'
export { createSessionRun } from './signal-recovery/session-run.js'
// the thread's media pool (media/media-pool.ts), ended when the shard's thread closes
export { closeThreadMediaPool as closeThread } from './media/media-pool.js'

/** Creates a link and starts connecting right away (credentials are read asynchronously). */
export const createBaileysLink: LinkFactory = options => {
  const link = new LinkSocket(options)
  const groups = makeGroups(link)
  const channels = makeChannels(link)
  const messages = makeMessages(link, channels)
  const status = makeStatus(link)
  const pairingCode = makePairingCode(link)
  const platformLink: PlatformLink = {
    sendMessage: messages.sendMessage,
    postStatus: status.postStatus,
    sendTyping: messages.sendTyping,
    listGroups: groups.listGroups,
    getGroup: groups.getGroup,
    listGroupMembers: groups.listGroupMembers,
    listChannels: channels.listChannels,
    listChannelMessages: channels.listChannelMessages,
    ownPicture: groups.ownPicture,
    requestPairingCode: pairingCode.requestPairingCode,
    logout: () => link.logout(),
    close: () => link.close(),
  }
  return platformLink
}

export default createBaileysLink
