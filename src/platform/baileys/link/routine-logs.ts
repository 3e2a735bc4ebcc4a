/**
 * @module platform/baileys/link/routine-logs
 * The logger the gateway hands Baileys. Baileys logs some steps of a session's normal life at `error` or `warn`,
 * and an operator reads those levels as something to act on: pairing 500 sessions wrote 500 `stream errored out`
 * errors (the platform's 515, "restart required", is how every pairing ends: BAILEYS-MAPPING §1.4), and a restart
 * a warning per session. Those lines, and only those, are written at the level they deserve (`ROUTINE`); every
 * other line keeps Baileys' level, so an unexpected stream error (a 440 `replaced`, a 401 logout) still logs as an
 * error.
 *
 * The lines Baileys logs go to `quiet`, its child logger clamped at warn (at debug Baileys logs whole stanzas and
 * key-store traffic: SECURITY.md). A routine line goes to `routine` instead, the session's unclamped logger, with
 * only the fields listed here (never Baileys' object), so it shows at LOG_LEVEL info or debug like the gateway's
 * own lines.
 */
import type { SocketConfig } from '@whiskeysockets/baileys'
import type { Level, Logger } from 'pino'

type ILogger = SocketConfig['logger']

interface RoutineLine {
  /** The level Baileys logs it at. */
  from: 'warn' | 'error'
  msg: string
  /** Whether Baileys' object is that routine case (default: every line with this message). */
  when?: (obj: Record<string, unknown>) => boolean
  /** The level it deserves. */
  to: Extract<Level, 'debug' | 'info'>
  /** The fields of Baileys' object that are logged with it: plain values known to hold no secret. */
  fields?: (obj: Record<string, unknown>) => Record<string, unknown>
}

const streamErrorCode = (obj: Record<string, unknown>): unknown =>
  (obj.fullErrorNode as { attrs?: { code?: unknown } } | undefined)?.attrs?.code

export const ROUTINE: readonly RoutineLine[] = [
  // Every pairing: the platform ends the first stream with 515 and the link logs in again (the gateway's own
  // `platform link closed` line, reason `restart-required`, says so at info).
  {
    from: 'error',
    msg: 'stream errored out',
    when: obj => streamErrorCode(obj) === '515',
    to: 'debug',
    fields: obj => ({ code: streamErrorCode(obj) }),
  },
  // A session whose account name is not known yet (right after pairing, or an account without a push name) does
  // not announce itself online; nothing is lost, the platform knows the device is connected.
  { from: 'warn', msg: 'no name present, ignoring presence update request...', to: 'debug' },
  // The platform pushed no history within Baileys' 20 s after a login it took for the first one: Baileys goes on.
  {
    from: 'warn',
    msg: 'Timeout in AwaitingInitialSync, forcing state to Online and flushing buffer',
    to: 'info',
  },
]

type Args = [obj: unknown, msg?: string]

function routineLine(level: 'warn' | 'error', [obj, msg]: Args): RoutineLine | undefined {
  const text = typeof obj === 'string' ? obj : msg
  const fields = typeof obj === 'object' && obj !== null ? (obj as Record<string, unknown>) : {}
  return ROUTINE.find(line => line.from === level && line.msg === text && (line.when?.(fields) ?? true))
}

/** Calls pino with the arguments exactly as Baileys gave them (an `undefined` message would become text). */
const write = (logger: Logger, level: Level, [obj, msg]: Args): void =>
  msg === undefined ? logger[level](obj as object) : logger[level](obj as object, msg)

/**
 * Baileys' logger: `quiet` for what Baileys logs, `routine()` (made on first use, children included) for the
 * routine lines of `ROUTINE`.
 */
export function routineAwareLogger(quiet: Logger, routine: () => Logger): ILogger {
  let routineLogger: Logger | undefined
  const mapped = (level: 'warn' | 'error', args: Args): void => {
    const line = routineLine(level, args)
    if (line === undefined) {
      write(quiet, level, args)
      return
    }
    routineLogger ??= routine()
    const obj = args[0]
    const fields =
      line.fields && typeof obj === 'object' && obj !== null ? line.fields(obj as Record<string, unknown>) : {}
    routineLogger[line.to](fields, line.msg)
  }
  return {
    get level() {
      return quiet.level
    },
    set level(level: string) {
      quiet.level = level
    },
    child: bindings => routineAwareLogger(quiet.child(bindings), () => routine().child(bindings)),
    trace: (...args: Args) => write(quiet, 'trace', args),
    debug: (...args: Args) => write(quiet, 'debug', args),
    info: (...args: Args) => write(quiet, 'info', args),
    warn: (...args: Args) => mapped('warn', args),
    error: (...args: Args) => mapped('error', args),
  }
}
