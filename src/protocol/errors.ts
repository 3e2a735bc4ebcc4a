/**
 * @module protocol/errors
 * `GatewayError`: a failure a client is told about, as data. Its code names one entry of ./error-table.ts (status,
 * message, `Retry-After`), its details are the values that entry's message names, typed, plus what the code alone
 * does not say: `retryAfterSeconds` (a wait computed at the time), `platformCode` (what the platform answered) and
 * a `cause` (for the log only). `src/http/errors.ts` maps it to HTTP in one place, reading those fields.
 *
 * Class instances lose their fields over `postMessage` (a structured clone), so an error crosses a worker thread as
 * its `WireError` (`{ code, details }`, the cause as text) and is rebuilt on the other side with `fromWire`: the
 * same code, the same details, the same message.
 *
 * @example
 * new GatewayError('SEND_RATE', { retryAfterSeconds: 2 }) // 429 too many messages for this session, retry in 2 s
 * new GatewayError('PLATFORM_REJECTED', { platformCode: '463' }).platformCode // '463'
 * new GatewayError('INTERNAL', { cause: err }) // 500 internal server error; `err` only in the log
 */
import { ERRORS, type ErrorCode, type ErrorEntry, type ErrorTemplate } from './error-table.js'
import { fill, type Placeholders } from './template.js'

export { ERRORS, type ErrorCode } from './error-table.js'

/** The details every error may carry, whatever its message says. */
interface CommonDetails {
  /** Seconds the client should wait before retrying (`Retry-After`), when the table fixes none. */
  retryAfterSeconds?: number
  /** What went wrong underneath: logged, never sent to the client. Crosses a thread as its text. */
  cause?: unknown
}

/** The values a template names, typed by name. */
type TemplateValues<T extends string> = {
  [K in Placeholders<T>]: K extends 'retryAfterSeconds' ? number : string | number
}

/** The details of `code`: the values its message names (required), and the common ones. */
export type ErrorDetails<C extends ErrorCode> = TemplateValues<ErrorTemplate<C>> & CommonDetails

/** A code whose message names no value takes its details optionally. */
type DetailsArgument<C extends ErrorCode> = [Placeholders<ErrorTemplate<C>>] extends [never]
  ? [details?: CommonDetails]
  : [details: ErrorDetails<C>]

/** Details as plain data: what crosses a thread. */
export type WireDetails = Readonly<Record<string, string | number>>

/** What crosses a thread boundary. */
export interface WireError {
  code: ErrorCode
  details: WireDetails
}

/** A cause as the log line reads it. */
function causeText(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`
  return String(cause)
}

export class GatewayError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C
  /** The values in the message, `retryAfterSeconds` and `platformCode` when given (not the cause). */
  readonly details: WireDetails

  constructor(code: C, ...[details]: DetailsArgument<C>) {
    const { cause, ...values } = (details ?? {}) as CommonDetails & Record<string, string | number>
    super(fill(ERRORS[code].message as string, values as never), cause === undefined ? undefined : { cause })
    this.name = 'GatewayError'
    this.code = code
    this.details = values
  }

  get status(): number {
    return ERRORS[this.code].status
  }

  /** The `Retry-After` of this answer: the wait computed for it, else its code's fixed one, else none. */
  get retryAfterSeconds(): number | undefined {
    const given = this.details.retryAfterSeconds
    if (typeof given === 'number') return given
    const entry: ErrorEntry = ERRORS[this.code]
    return entry.retryAfterSeconds
  }

  /** The error code the platform answered with, when this error reports one. */
  get platformCode(): string | undefined {
    const code = this.details.platformCode
    return code === undefined ? undefined : String(code)
  }

  /** Whether this error says the gateway or the platform misbehaved (logged at warn). */
  get isWarning(): boolean {
    const entry: ErrorEntry = ERRORS[this.code]
    return entry.log === 'warn'
  }

  toWire(): WireError {
    if (this.cause === undefined) return { code: this.code, details: this.details }
    return { code: this.code, details: { ...this.details, cause: causeText(this.cause) } }
  }
}

/** Whole seconds for a `Retry-After` from a wait in ms (at least 1, so a client never retries at once into a
 * refusal). */
export const retryAfterFromMs = (waitMs: number): number => Math.max(1, Math.ceil(waitMs / 1000))

/** 400 with every failing validation rule, one a line (spec: Errors). */
export const validationFailed = (lines: readonly string[]): GatewayError =>
  new GatewayError('VALIDATION', { lines: lines.join('\n') })

export function isWireError(value: unknown): value is WireError {
  if (typeof value !== 'object' || value === null) return false
  const { code, details } = value as Partial<WireError>
  return typeof code === 'string' && Object.hasOwn(ERRORS, code) && typeof details === 'object' && details !== null
}

/**
 * `GatewayError`'s constructor without the typing per code, for an error rebuilt from the parts of one already
 * made (its wire form, or another GatewayError a subclass wraps).
 */
export const GatewayErrorFromParts = GatewayError as new (code: ErrorCode, details: WireDetails) => GatewayError

/** The error a wire form describes: same code, details and message; its cause is the text that crossed. */
export const fromWire = ({ code, details }: WireError): GatewayError => new GatewayErrorFromParts(code, details)

/** Anything thrown → a wire error; unknown failures become 500 `internal server error` (details go to the log). */
export function toWireError(err: unknown): WireError {
  if (err instanceof GatewayError) return err.toWire()
  if (isWireError(err)) return { code: err.code, details: err.details }
  return { code: 'INTERNAL', details: {} }
}
