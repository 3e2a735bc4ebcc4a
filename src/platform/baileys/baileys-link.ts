/**
 * @module platform/baileys/baileys-link
 * The Baileys 7 implementation of PlatformLink: one `makeWASocket` per link, never reused. Built in layers, as
 * Baileys builds its own socket (`src/Socket/`: socket → chats → groups → messages-send, each extending the one
 * below), one file per concern under `link/`:
 *
 * - `link/socket.ts`: the socket itself (its settings and sandbox trust, credentials, connection events → LinkEvents,
 *   close/logout); every layer above asks it for the open socket;
 * - `link/groups.ts`: groups, members and profile pictures;
 * - `link/channels.ts`: the account's channels and channel history;
 * - `link/messages.ts`: sends (channel posts included) that wait for the server ack, and typing;
 * - `link/status.ts`: status posts relayed in batches;
 * - `link/pairing-code.ts`: pairing by code, answered once the platform registered the code.
 *
 * Pure mapping lives in the sibling files (close-reason, group-mapping, channel-mapping, status-recipients,
 * message-content). The shard worker imports this module by path (a `PlatformModule`, platform/link.ts): the
 * factory, and the adapter's hooks: the libsignal console patch, the sandbox trust fetch, the signal-recovery guard.
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
export { createRunGuard } from './patches/signal-recovery/run-guard.js'

/** Creates a link and starts connecting right away (credentials are read asynchronously). */
export const createBaileysLink: LinkFactory = options => {
  const conn = new LinkSocket(options)
  const groups = makeGroups(conn)
  const channels = makeChannels(conn)
  const messages = makeMessages(conn, channels)
  const status = makeStatus(conn)
  const pairingCode = makePairingCode(conn)
  const link: PlatformLink = {
    sendMessage: messages.sendMessage,
    postStatus: status.postStatus,
    presence: messages.presence,
    listGroups: groups.listGroups,
    getGroup: groups.getGroup,
    groupMembers: groups.groupMembers,
    listChannels: channels.listChannels,
    channelMessages: channels.channelMessages,
    ownPicture: groups.ownPicture,
    requestPairingCode: pairingCode.requestPairingCode,
    logout: () => conn.logout(),
    close: () => conn.close(),
  }
  return link
}

export default createBaileysLink
