/**
 * @module actors/worker/platform-loader
 * Loads the platform module of a worker (`PlatformModule`, platform/link.ts) once and lazily (the Baileys adapter
 * costs ~1.7 s and ~27 MB per thread), installs its patches, and gives the shard's actors what they use of it
 * (`ShardPlatform`). The module may export its factory as `createBaileysLink`, `createLink` or `default`; tests
 * point at a fake that exports nothing else.
 */
import { pathToFileURL } from 'node:url'
import type { Logger } from 'pino'
import type { LinkFactory, PlatformModule, SessionRun, SandboxTrust } from '../../platform/link.js'
import { clientVersionKeeper } from '../../platform/client-version-keeper.js'
import type { AuthStore, PlatformFacts } from '../../storage/types.js'
import type { ShardPlatform } from '../session/deps.js'
import { collectGarbageOnce } from './heap-limit.js'

export interface PlatformLoaderOptions {
  /** Path or file URL of the platform module. */
  linkModule: string
  /** SANDBOX_URL: links then connect to the loopback sandbox and need its trust material. */
  sandboxUrl: string | undefined
  /** The shard's logger, for the module's patches. */
  logger: Logger
  /** Where the learned web client version is kept across restarts (the store's platform facts). */
  facts: PlatformFacts
  /** PLATFORM_CLIENT_VERSION, when set. */
  pinnedClientVersion?: string | undefined
}

/** Loads the platform on its first call; `closeThread` ends what the module holds for the thread, if it was loaded. */
export interface PlatformLoader {
  (): Promise<ShardPlatform>
  closeThread(): Promise<void>
}

export function platformLoader(options: PlatformLoaderOptions): PlatformLoader {
  let pending: Promise<ShardPlatform> | undefined
  let closeModule: PlatformModule['closeThread']
  const loadOnce = () =>
    (pending ??= load(options, mod => {
      closeModule = mod.closeThread
    }))
  return Object.assign(loadOnce, { closeThread: async () => closeModule?.() })
}

async function load(
  options: PlatformLoaderOptions,
  loaded: (mod: Partial<PlatformModule>) => void,
): Promise<ShardPlatform> {
  const { linkModule, sandboxUrl, logger } = options
  const url = linkModule.startsWith('file:') ? linkModule : pathToFileURL(linkModule).href
  const mod = (await import(url)) as Partial<PlatformModule> & Record<string, unknown>
  loaded(mod)
  const factory = mod.createBaileysLink ?? mod.createLink ?? mod.default
  if (typeof factory !== 'function') throw new Error(`${linkModule} exports no LinkFactory`)
  mod.installPatches?.(logger)
  // before the first session: V8 sizes this thread's heap from a full collection, not a 256 MB start-up limit
  collectGarbageOnce()
  return {
    createLink: factory as LinkFactory,
    sandboxTrust: sandboxTrustLoader(sandboxUrl, mod.fetchSandboxTrust),
    // one per thread, shared by its sessions (client-version-keeper.ts)
    clientVersion: clientVersionKeeper({
      pinned: options.pinnedClientVersion,
      lookup: mod.lookupClientVersion && (() => (mod.lookupClientVersion as LookupClientVersion)(sandboxUrl)),
      facts: options.facts,
      log: logger,
    }),
    createSessionRun: (_id, auth, log) => (mod.createSessionRun ?? plainRun)(auth, log),
  }
}

type LookupClientVersion = NonNullable<PlatformModule['lookupClientVersion']>

/** For a platform module without a session run: its links get the auth store as it is. */
const plainRun = (auth: AuthStore): SessionRun => ({ authForLink: async () => auth, release: async () => undefined })

/**
 * The sandbox's trust material, fetched once per worker thread and shared by every session on it; a failed fetch
 * is forgotten, so the next link (the actor's reconnect backoff) tries again.
 */
function sandboxTrustLoader(
  sandboxUrl: string | undefined,
  fetchTrust: PlatformModule['fetchSandboxTrust'],
): () => Promise<SandboxTrust | undefined> {
  let pending: Promise<SandboxTrust> | undefined
  return async () => {
    if (!sandboxUrl || !fetchTrust) return undefined
    pending ??= fetchTrust(sandboxUrl)
    try {
      return await pending
    } catch (err) {
      pending = undefined
      throw err
    }
  }
}
