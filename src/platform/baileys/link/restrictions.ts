/**
 * @module platform/baileys/link/restrictions
 * Keeps the actor told of the account's restrictions (protocol/restrictions.ts): read from the platform when the
 * link opens, on the platform's notifications (Baileys: `connection.update { reachoutTimeLock }`,
 * `message-capping.update`), and again after any error-463 ack. Baileys neither retries a 463 nor asks about the
 * restriction after one (its ack handler only issues a privacy token), so the link asks itself. One refresh at a
 * time: a burst of 463s costs two queries, not two per send.
 */
import type { WASocket, BinaryNode } from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { LinkEvents } from '../../link.js'
import { ACK_EVENT } from '../ack.js'
import { capOf, timelockOf } from '../mapping/restrictions.js'
import { withTimeout } from '../query.js'

/** The ack error of a 1:1 message the platform refused because the account may not reach out (Baileys' words). */
export const RESTRICTED_ACK_ERROR = '463'

export function watchRestrictions(
  sock: WASocket,
  events: Pick<LinkEvents, 'restrictions'>,
  log: Logger,
  timeoutMs: number,
): void {
  let refreshing: Promise<void> | undefined
  let again = false
  const attempt = async (read: () => Promise<unknown>): Promise<void> => {
    try {
      await withTimeout(read(), timeoutMs)
    } catch (err) {
      log.debug({ err }, 'reading a restriction failed')
    }
  }
  const readBoth = async () => {
    await Promise.all([
      // Baileys emits the timelock it read as a connection.update, which lands below
      attempt(() => sock.fetchAccountReachoutTimelock()),
      attempt(async () => events.restrictions({ newChatCap: capOf(await sock.fetchNewChatMessageCap()) })),
    ])
  }
  const refresh = (): void => {
    if (refreshing) {
      again = true
      return
    }
    refreshing = readBoth().finally(() => {
      refreshing = undefined
      if (again) {
        again = false
        refresh()
      }
    })
  }
  sock.ev.on('connection.update', update => {
    if (update.reachoutTimeLock) events.restrictions({ reachoutTimelock: timelockOf(update.reachoutTimeLock) })
    if (update.connection === 'open') refresh()
  })
  sock.ev.on('message-capping.update', info => events.restrictions({ newChatCap: capOf(info) }))
  sock.ws.on(ACK_EVENT, (node: BinaryNode) => {
    if (node.attrs.error === RESTRICTED_ACK_ERROR) refresh()
  })
}
