/**
 * @module logger
 * The gateway's root pino logger: JSON lines by default (what log collectors read), human-readable through
 * pino-pretty when stdout is a terminal (LOG_FORMAT=auto) or when asked (LOG_FORMAT=pretty). Worker threads cannot
 * see the terminal: main resolves the format once and hands it to them. The `session-id` header is redacted wherever a header object gets logged;
 * the request log (src/http/ops/request-log.ts) does not log headers at all.
 */
import { pino, type Logger } from 'pino'
import { z } from 'zod'
import { logRedaction } from './security/log-redaction.js'
import { pickSettings, type SliceOf } from './settings/fields.js'

/** The logs' slice of the settings (docs/operating.md: Settings). */
export const LOG_SETTINGS = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Log lines: JSON, or pino-pretty for people; auto = pretty only when stdout is a terminal. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
}

export type LogSettings = SliceOf<typeof LOG_SETTINGS>

export const logSettings = (values: LogSettings): LogSettings => pickSettings(values, LOG_SETTINGS)

/** Whether `LOG_FORMAT` asks for pretty lines; `auto` looks at this process's stdout. */
export function wantsPrettyLogs(format: 'auto' | 'json' | 'pretty', isTTY = Boolean(process.stdout.isTTY)): boolean {
  return format === 'pretty' || (format === 'auto' && isTTY)
}

export function createRootLogger(level: string, pretty: boolean): Logger {
  return pino({
    level,
    // `session-id` headers, credentials, keys, QR strings and message text (src/security/log-redaction.ts)
    redact: logRedaction,
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } }
      : {}),
  })
}
