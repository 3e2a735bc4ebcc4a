/**
 * @module platform/baileys/link/safe-events
 * The actor's LinkEvents handlers run inside Baileys' emitter: a throw there must not break the socket, so each
 * handler is wrapped to log the failure instead.
 */
import type { Logger } from 'pino'
import type { LinkEvents } from '../../link.js'

export function safeEvents(target: LinkEvents, log: Logger): LinkEvents {
  const safe = <K extends keyof LinkEvents>(name: K) =>
    ((...args: unknown[]) => {
      try {
        ;(target[name] as (...a: unknown[]) => void)(...args)
      } catch (err) {
        log.error({ err, event: name }, 'link event handler failed')
      }
    }) as LinkEvents[K]
  return {
    qr: safe('qr'),
    paired: safe('paired'),
    open: safe('open'),
    name: safe('name'),
    close: safe('close'),
    restrictions: safe('restrictions'),
    conversations: safe('conversations'),
  }
}
