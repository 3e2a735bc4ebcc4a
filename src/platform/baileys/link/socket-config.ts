/**
 * @module platform/baileys/link/socket-config
 * Builds the one Baileys socket of a link: the `makeWASocket` options the gateway relies on (BAILEYS-MAPPING §1.1),
 * against the loopback sandbox the trust wiring that lets the unmodified client verify it (PLATFORM-PROTOCOL M1,
 * M4), and behind the session's proxy the agents that carry its connections (link-agents.ts).
 */
import { gateWrites } from './write-gate.js'
import makeWASocket, {
  Browsers,
  WA_CERT_DETAILS,
  type AuthenticationCreds,
  type GroupMetadata,
  type PossiblyExtendedCacheStore,
  type WAMessageKey,
  type WASocket,
  type proto,
} from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { LinkOptions } from '../../link.js'
import type { LinkSettings } from '../../settings.js'
import { linkAgents, type LinkAgents } from '../link-agents.js'
import { patchApplies } from '../patches/inventory.js'
import { setPlatformSignatureCheck } from '../patches/signature-check.js'
import { DeferredLogger } from './deferred-logger.js'
import { cachedKeyStore } from './key-cache.js'
import { lazyRetryManagerCaches, socketCaches } from './lazy-caches.js'
import { routineAwareLogger } from './routine-logs.js'

/**
 * What the socket tells the platform it is (a pairing code's companion_hello names it too): the first part is the
 * name the phone's linked-devices list shows (PLATFORM_DEVICE_NAME, 'Mac OS' by default), the second the browser
 * it is shown as.
 */
export const browserOf = (settings: Pick<LinkSettings, 'PLATFORM_DEVICE_NAME'>): [string, string, string] => {
  const [, browser, release] = Browsers.macOS('Chrome')
  return [settings.PLATFORM_DEVICE_NAME, browser, release]
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']
/** Baileys logs a lot at info, and at debug/trace whole stanzas, decrypted messages and key-store traffic: its child
 * logger runs at warn even when LOG_LEVEL is debug or trace (SECURITY.md), or quieter with the gateway. */
const quietLevel = (parent: string): string => (LEVELS.indexOf(parent) > LEVELS.indexOf('warn') ? parent : 'warn')

export interface BaileysSocket {
  sock: WASocket
  /** The child logger handed to Baileys (also for Baileys helpers the link calls itself). */
  logger: Logger
  /** The sandbox's TLS agents or the proxy's; the link destroys them when it ends. Undefined: direct. */
  agents: LinkAgents | undefined
  /** Closes the caches handed to Baileys (it closes only those it made): the link calls it when the socket ends. */
  closeCaches(): void
}

export function openBaileysSocket(
  options: LinkOptions,
  creds: AuthenticationCreds,
  cachedGroupMetadata: (jid: string) => Promise<GroupMetadata | undefined>,
  getMessage: (key: WAMessageKey) => Promise<proto.IMessage | undefined>,
): BaileysSocket {
  const { auth, sandbox } = options
  // the parent already names the session (`session: <id>`)
  const logger = options.logger.child({ component: 'baileys' }, { level: quietLevel(options.logger.level) })
  // what Baileys logs as errors and warnings in a normal pairing or restart goes to the session's log at its own level;
  // the child loggers Baileys makes (one per message it builds) are made in pino only if a line is written
  // (deferred-logger.ts); each patch of this file only where Baileys is the version it was written for (inventory.ts)
  const deferred = patchApplies('deferred child loggers') ? (DeferredLogger.of(logger) as unknown as Logger) : logger
  const baileysLogger = routineAwareLogger(deferred, () => options.logger.child({ component: 'baileys' }))
  const transport: Record<string, unknown> = {}
  if (patchApplies('platform signature check')) setPlatformSignatureCheck(options.settings.VERIFY_PLATFORM_SIGNATURES)
  if (sandbox) {
    // the very object noise-handler reads (PLATFORM-PROTOCOL M1): the sandbox signs its own certificate chain
    WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(sandbox.rootPublicKey, 'base64')
    transport.waWebSocketUrl = sandbox.wsUrl
  }
  // the sandbox's CA and the session's proxy (link-agents.ts); throws when the proxy is refused
  const agents = linkAgents(options.settings, sandbox, options.proxy)
  if (agents) {
    transport.fetchAgent = agents.fetch // media uploads go through node https with this agent
    transport.options = { dispatcher: agents.dispatcher } // Baileys-side downloads use global fetch
    if (agents.ws) transport.agent = agents.ws // the WebSocket
  }
  // made on their first write rather than with each socket (lazy-caches.ts): an idle session writes to none of them
  const lazyCaches = patchApplies('lazy socket caches')
  const caches = lazyCaches ? socketCaches() : undefined
  try {
    // Each socket enables an AsyncLocalStorage of its own (Baileys issue #2806). On Node 20 that made every async
    // step cost more with each socket; on Node 24 storages live in async context frames and the cost stays flat
    // however many sockets a thread holds (`npm run bench:scale:context`), so no workaround is needed.
    const sock = makeWASocket({
      // our own cache, not Baileys' makeCacheableSignalKeyStore: no pre-keys held after pairing (key-cache.ts)
      auth: { creds, keys: cachedKeyStore(auth.keys) },
      logger: baileysLogger,
      browser: browserOf(options.settings),
      // the platform's current version when one was learned or pinned (client-version-keeper.ts), else Baileys' own
      ...(options.clientVersion ? { version: [...options.clientVersion] as [number, number, number] } : {}),
      syncFullHistory: false,
      // online on connect mutes the owner's phone (no notifications while the gateway is connected): off by default
      markOnlineOnConnect: options.settings.PLATFORM_ONLINE_ON_CONNECT,
      // Baileys would replay every message we send as a `messages.upsert` of our own (through its event buffer and
      // a mutex), and our app-state changes likewise; nothing listens to either (emitting costs CPU per send)
      emitOwnEvents: false,
      cachedGroupMetadata,
      // a recipient's retry receipt for a message Baileys no longer holds in memory (link/retry-messages.ts)
      getMessage,
      ...(caches && {
        msgRetryCounterCache: caches.msgRetryCounterCache,
        callOfferCache: caches.callOfferCache,
        placeholderResendCache: caches.placeholderResendCache,
        // NodeCache's mget answers synchronously, as this one does; Baileys awaits it either way
        userDevicesCache: caches.userDevicesCache as unknown as PossiblyExtendedCacheStore,
      }),
      ...transport,
    })
    if (lazyCaches) lazyRetryManagerCaches(sock)
    if (options.mayWrite) gateWrites(sock, options.mayWrite, logger)
    return { sock, logger, agents, closeCaches: () => caches?.close() }
  } catch (err) {
    agents?.destroy()
    caches?.close()
    throw err
  }
}
