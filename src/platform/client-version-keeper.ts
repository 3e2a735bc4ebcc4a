/**
 * @module platform/client-version-keeper
 * Which web client version a shard's links tell the platform. The client library ships the version of the day it
 * was built, and the platform refuses old versions at login (405): pairing then stops for every session until an
 * upgrade. So, unless PLATFORM_CLIENT_VERSION pins one, the keeper looks up the platform's current version when the
 * first link of the thread opens and again after a 405, keeps it in memory and in the store (a restart without
 * network uses the last one learned), and when it cannot learn one falls back to the last one stored, else to the
 * library's bundled one (undefined here), with one `warn` line each time it falls back.
 *
 * Bounded so that a thousand sessions refused at once cost one lookup: lookups in flight are shared, a 405 starts
 * a new lookup at most once per RELEARN_MIN_MS, and after a failed lookup the fallback is used for LOOKUP_RETRY_MS
 * before the next try.
 */
import type { Logger } from 'pino'
import type { PlatformFacts } from '../storage/types.js'
import { formatClientVersion, parseClientVersion, type ClientVersion } from './client-version.js'

/** Where the learned version is kept in the store's platform facts. */
export const CLIENT_VERSION_FACT = 'client-version'
/** A 405 asks for a new lookup at most this often. */
export const RELEARN_MIN_MS = 60_000
/** After a failed lookup, the fallback serves this long before the next lookup. */
export const LOOKUP_RETRY_MS = 5 * 60_000

export interface ClientVersionSource {
  /** The version the next link tells the platform; undefined: the client library's bundled one. */
  current(): Promise<ClientVersion | undefined>
  /** The platform refused `version` at login (405): the next `current()` looks the current one up again. */
  refused(version: ClientVersion | undefined): void
  /** PLATFORM_CLIENT_VERSION pins the version: nothing is looked up, a 405 is the operator's to fix. */
  readonly pinned: boolean
}

export interface ClientVersionKeeperOptions {
  /** PLATFORM_CLIENT_VERSION (`a.b.c`), when set. */
  pinned?: string | undefined
  /** Looks up the platform's current version (the sandbox's when SANDBOX_URL is set); absent: the links use their
   * library's own version (a platform module without a lookup, such as the actor tests' fake). */
  lookup?: (() => Promise<ClientVersion>) | undefined
  facts: PlatformFacts
  log: Logger
  now?: () => number
}

interface Known {
  version: ClientVersion | undefined
  /** When it was settled; a fallback is looked up again LOOKUP_RETRY_MS after. */
  at: number
  looked: boolean
}

export function clientVersionKeeper(options: ClientVersionKeeperOptions): ClientVersionSource {
  const { facts, log, lookup } = options
  const now = options.now ?? Date.now
  const pinned = options.pinned === undefined ? undefined : parseClientVersion(options.pinned)
  if (options.pinned !== undefined && !pinned) throw new Error(`PLATFORM_CLIENT_VERSION ${options.pinned} is not a.b.c`)
  let known: Known | undefined
  let pending: Promise<ClientVersion | undefined> | undefined
  let lastRelearn = Number.NEGATIVE_INFINITY

  const learn = async (): Promise<ClientVersion | undefined> => {
    try {
      const version = await (lookup as () => Promise<ClientVersion>)()
      known = { version, at: now(), looked: true }
      log.info({ clientVersion: formatClientVersion(version) }, "learned the platform's current web client version")
      await facts
        .write(CLIENT_VERSION_FACT, formatClientVersion(version))
        .catch(err => log.warn({ err }, 'could not store the learned web client version'))
      return version
    } catch (err) {
      const stored = await facts.read(CLIENT_VERSION_FACT).catch(() => undefined)
      const version = stored === undefined ? undefined : parseClientVersion(stored)
      known = { version, at: now(), looked: false }
      const reason = (err as Error).message ?? String(err)
      if (version)
        log.warn(
          { reason, clientVersion: stored },
          "could not look up the platform's current web client version: using the last one learned",
        )
      else
        log.warn(
          { reason },
          "could not look up the platform's current web client version: using the client library's bundled one",
        )
      return version
    }
  }

  return {
    pinned: pinned !== undefined,
    async current() {
      if (pinned) return pinned
      if (!lookup) return undefined // a platform module without a lookup: its library's own version
      if (known && (known.looked || now() - known.at < LOOKUP_RETRY_MS)) return known.version
      pending ??= learn().finally(() => {
        pending = undefined
      })
      return pending
    },
    refused(version) {
      if (pinned || !known || now() - lastRelearn < RELEARN_MIN_MS) return
      // a link opened with an older answer: the newer one may already be the fix
      if (
        version !== undefined &&
        known.version !== undefined &&
        formatClientVersion(version) !== formatClientVersion(known.version)
      )
        return
      lastRelearn = now()
      known = undefined
    },
  }
}
