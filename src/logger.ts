/**
 * @module logger
 * The gateway's root pino logger: JSON lines by default (what log collectors read), human-readable through
 * pino-pretty when stdout is a terminal. The `session-id` header is redacted wherever a header object gets logged;
 * the request log (src/http/ops/request-log.ts) does not log headers at all.
 */
import { pino, type Logger } from 'pino'

export const REDACTED_PATHS = [
  'req.headers["session-id"]',
  'headers["session-id"]',
  'request.headers["session-id"]',
  'sessionId',
  '*.sessionId',
]

export function createRootLogger(level: string, pretty = Boolean(process.stdout.isTTY)): Logger {
  return pino({
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  })
}
