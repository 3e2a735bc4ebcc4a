/**
 * @module platform/baileys/link/restrictions
 * Keeps the actor told of the account's restrictions (protocol/restrictions.ts): read from the platform when the
 * link opens, on the platform's notifications (Baileys: `connection.update { reachoutTimeLock }`,
 * `message-capping.update`), again after any error-463 ack, and when a restriction's end (or the cap's cycle)
 * passes. Baileys neither retries a 463 nor asks about the restriction after one (its ack handler only issues a
 * privacy token), so the link asks itself. One refresh at a time: a burst of 463s costs two queries, not two per send.
 */
import type { WASocket, BinaryNode } from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { LinkEvents } from '../../link.js'
import { ACK_EVENT } from '../ack.js'
import { capOf, timelockOf } from '../mapping/restrictions.js'
import { withTimeout } from '../query.js'

/** The ack error of a 1:1 message the platform refused because the account may not reach out (Baileys' words). */
export const RESTRICTED_ACK_ERROR = '463'
/** How long after a restriction's end it is read again (the platform's clock and ours differ a little). */
const AFTER_END_MS = 2_000
/** The longest timer node keeps (about 24.8 days); a later end is read again at the next connection. */
const MAX_TIMER_MS = 2 ** 31 - 1

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
      attempt(async () => {
        const newChatCap = capOf(await sock.fetchNewChatMessageCap())
        readAgainAfter('cap', newChatCap.status === 'NONE' ? null : newChatCap.cycleEndsAt)
        events.restrictions({ newChatCap })
      }),
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
  /** One timer per kind of restriction: read both again once its end has passed. */
  const endTimers = new Map<'timelock' | 'cap', NodeJS.Timeout>()
  const readAgainAfter = (kind: 'timelock' | 'cap', end: string | null): void => {
    clearTimeout(endTimers.get(kind))
    endTimers.delete(kind)
    const wait = end === null ? Number.NaN : Date.parse(end) - Date.now() + AFTER_END_MS
    if (wait > 0 && wait <= MAX_TIMER_MS) endTimers.set(kind, setTimeout(refresh, wait))
  }
  sock.ev.on('connection.update', update => {
    if (update.reachoutTimeLock) {
      const reachoutTimelock = timelockOf(update.reachoutTimeLock)
      readAgainAfter('timelock', reachoutTimelock.until)
      events.restrictions({ reachoutTimelock })
    }
    if (update.connection === 'open') refresh()
    if (update.connection === 'close') for (const timer of endTimers.values()) clearTimeout(timer)
  })
  sock.ev.on('message-capping.update', info => {
    const newChatCap = capOf(info)
    readAgainAfter('cap', newChatCap.status === 'NONE' ? null : newChatCap.cycleEndsAt)
    events.restrictions({ newChatCap })
  })
  sock.ws.on(ACK_EVENT, (node: BinaryNode) => {
    if (node.attrs.error === RESTRICTED_ACK_ERROR) refresh()
  })
}
