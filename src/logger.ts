/**
 * @module logger
 * The gateway's root pino logger: JSON lines by default (what log collectors read), human-readable through
 * pino-pretty when stdout is a terminal. The `session-id` header is redacted wherever a header object gets logged;
 * the request log (src/http/ops/request-log.ts) does not log headers at all.
 */
import { pino, type Logger } from 'pino'
import { logRedaction } from './security/log-redaction.js'

export function createRootLogger(level: string, pretty = Boolean(process.stdout.isTTY)): Logger {
  return pino({
    level,
    // `session-id` headers, credentials, keys, QR strings and message text (src/security/log-redaction.ts)
    redact: logRedaction,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  })
}
