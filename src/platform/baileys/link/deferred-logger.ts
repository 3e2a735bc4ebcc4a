/**
 * @module platform/baileys/link/deferred-logger
 * The logger handed to Baileys, whose `child()` makes pino's child only when a line is written through it.
 *
 * Why: Baileys makes a child logger for every message it builds (`generateWAMessage`: `logger.child({ msgId })`),
 * and a pino child serialises its bindings through the gateway's redaction at once: ~1 % of a shard's busy time in
 * a send burst (pino and its redaction, bench:send-profile), for a logger that at the Baileys level
 * (warn or quieter, socket-config.ts) almost never writes a line. Deferred, the child costs one small object; a
 * line that is written carries the same bindings as before, in the same order.
 */
import { type Logger, type LevelWithSilent, levels } from 'pino'

const METHODS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const
type Method = (typeof METHODS)[number]
type LevelMethod = (...args: unknown[]) => void

const levelNumber = (level: string): number => (level === 'silent' ? Infinity : (levels.values[level] ?? 0))

/** A logger standing for `make()` (called at most once, on the first line at an enabled level). */
export class DeferredLogger {
  readonly #make: () => Logger
  #level: string
  #threshold: number
  #made: Logger | undefined
  // pino's level methods, as Baileys calls them: defined once on the prototype (the static block below)
  declare readonly trace: LevelMethod
  declare readonly debug: LevelMethod
  declare readonly info: LevelMethod
  declare readonly warn: LevelMethod
  declare readonly error: LevelMethod
  declare readonly fatal: LevelMethod

  constructor(make: () => Logger, level: string) {
    this.#make = make
    this.#level = level
    this.#threshold = levelNumber(level)
  }

  get level(): string {
    return this.#level
  }

  /** As pino's: this logger's level from now on (its children made before keep theirs). */
  set level(level: string) {
    this.#level = level
    this.#threshold = levelNumber(level)
    if (this.#made) this.#made.level = level
  }

  /** Stands for `logger` itself: its children are deferred. */
  static of(logger: Logger): DeferredLogger {
    return new DeferredLogger(() => logger, logger.level)
  }

  #logger(): Logger {
    if (!this.#made) {
      this.#made = this.#make()
      if (this.#made.level !== this.#level) this.#made.level = this.#level
    }
    return this.#made
  }

  child(bindings: Record<string, unknown>, options?: { level?: LevelWithSilent }): DeferredLogger {
    return new DeferredLogger(() => this.#logger().child(bindings, options), options?.level ?? this.level)
  }

  isLevelEnabled(level: string): boolean {
    return levelNumber(level) >= this.#threshold
  }

  #write(method: Method, args: unknown[]): void {
    if (levelNumber(method) < this.#threshold) return
    ;(this.#logger()[method] as (...a: unknown[]) => void)(...args)
  }

  static {
    // one method per level, on the prototype: a child is one small object, whatever it is used for
    for (const method of METHODS)
      Object.defineProperty(DeferredLogger.prototype, method, {
        value(this: DeferredLogger, ...args: unknown[]) {
          this.#write(method, args)
        },
      })
  }
}
