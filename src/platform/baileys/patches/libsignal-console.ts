/**
 * @module platform/baileys/patches/libsignal-console
 * libsignal (under Baileys) prints whole Signal session records — private ratchet keys included — with
 * console.info/warn whenever a session opens or closes, which is routine. In a shard worker those lines would put
 * key material in the gateway's logs, so they are reduced to a debug log line without the record.
 */
import type { Logger } from 'pino'

const CHATTER = [
  'Closing session',
  'Opening session',
  'Closing open session in favor of incoming prekey bundle',
  'Decrypted message with closed session',
  'Removing old closed session',
  'Session already closed',
  'Session already open',
  'Migrating session to',
]

export function routeLibsignalConsole(logger: Logger): void {
  for (const level of ['log', 'info', 'warn'] as const) {
    const original = console[level].bind(console)
    console[level] = (...args: unknown[]): void => {
      const first = args[0]
      if (typeof first === 'string' && CHATTER.some(prefix => first.startsWith(prefix))) {
        logger.debug({ libsignal: first }, 'signal session event')
        return
      }
      original(...args)
    }
  }
}
