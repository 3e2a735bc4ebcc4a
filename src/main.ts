/**
 * @module main
 * The only place that listens. Reads settings, opens the session system (worker threads + storage), serves HTTP,
 * and on SIGTERM/SIGINT drains in-flight requests and closes sockets without logging any device out.
 */
// first: on a Node older than package.json's engines, nothing else runs (refuse-old-node.ts)
import './refuse-old-node.js'
import { whenParentGone } from './parent-watch.js'
import { loadSettings, type Settings } from './gateway-settings.js'
import { createRootLogger, wantsPrettyLogs } from './logger.js'
import { createShardedSessionSystem } from './actors/main/sharded-system.js'
import { embeddedMode } from './actors/main/embedded-mode.js'
import { appSettings, createApp } from './http/app.js'
import { createHttpServer } from './http/server.js'
import { ConnectionGuard } from './http/connections/connection-guard.js'
import { removeMediaTempDirs } from './media/temp-dir.js'
import { sweepStaleMediaDirs } from './media/temp-sweep.js'
import { ffmpegStartupWarnings, locateFfmpeg } from './media/ffmpeg-locate.js'
import { startupFailed } from './security/startup-failure.js'
import { startupWarnings } from './startup-warnings.js'
import { installTestHooks } from './test-hooks.js'
import { startIdleHeapReducer } from './actors/idle-heap.js'
import { describeCapacity, machineSessionCapacity } from './actors/session-capacity.js'

// A bad setting stops the process with one line on stderr, before anything starts.
let settings: Settings
try {
  settings = loadSettings()
} catch (err) {
  startupFailed(err)
}
const prettyLogs = wantsPrettyLogs(settings.LOG_FORMAT)
const logger = createRootLogger(settings.LOG_LEVEL, prettyLogs)
// Unset, MAX_SESSIONS is what this machine holds (actors/session-capacity.ts): say the figure and how it was reached.
if (process.env.MAX_SESSIONS === undefined) {
  const capacity = machineSessionCapacity()
  logger.info({ maxSessions: settings.MAX_SESSIONS, ...capacity }, describeCapacity(capacity))
}
// Media folders of gateway processes that died without removing them (media/temp-sweep.ts).
void sweepStaleMediaDirs().then(swept => {
  if (swept.removed.length + swept.staleFiles.length > 0) logger.info(swept, 'removed media temp files left by a crash')
})

// Worker threads log like this thread; they cannot tell whether stdout is a terminal, so they get the answer.
// A DATA_KEY that does not fit the DATA_DIR fails here, before any session starts.
// Cluster mode (REDIS_URL): this node's heartbeat, the ownership loop and the request routes (cluster/cluster-node.ts),
// loaded only then: one process on its own store loads no code of cluster mode.
const clusterNode = settings.REDIS_URL
  ? (await import('./cluster/cluster-node.js')).openClusterNode(settings, logger)
  : undefined
// The session system's mode: one process on its own store, or a node of the cluster (actors/main/session-mode.ts).
const system = await createShardedSessionSystem({
  settings: { ...settings, LOG_FORMAT: prettyLogs ? 'pretty' : 'json' },
  logger,
  mode: clusterNode?.mode ?? embeddedMode(),
}).catch(startupFailed)
const cluster = await clusterNode?.start(system).catch(startupFailed)
// The caps on connections and the write time-out, shared by the server (which applies them) and /metrics.
const connections = new ConnectionGuard(settings)
const app = createApp({
  system,
  settings: appSettings(settings),
  logger,
  connections,
  ...(cluster ? { cluster } : {}),
})
installTestHooks(settings, system, logger)
// Once the HTTP thread falls quiet after work, it gives back the young generation that work grew (idle-heap.ts).
startIdleHeapReducer()
const tls =
  settings.TLS_CERT_FILE && settings.TLS_KEY_FILE
    ? { certFile: settings.TLS_CERT_FILE, keyFile: settings.TLS_KEY_FILE }
    : undefined
const server = createHttpServer(app, tls, connections)
// A PORT another process holds, or one this user may not take, is one line for the operator (startup-failure.ts).
server.once('error', startupFailed)
server.listen(settings.PORT, settings.HOST, () => {
  server.off('error', startupFailed)
  logger.info(
    { port: settings.PORT, sandbox: settings.SANDBOX_URL ?? null, node: process.versions.node },
    'gateway listening',
  )
  for (const warning of startupWarnings(settings)) logger.warn(warning)
  // Without ffmpeg (or prlimit) the gateway still sends videos; said once here, not once per video.
  for (const warning of ffmpegStartupWarnings(locateFfmpeg(settings))) logger.warn(warning)
})

let stopping = false
async function stop(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'shutting down: draining requests')
  // Stop accepting connections; requests already inside finish (system.close waits for them up to the grace).
  const closed = new Promise<void>(resolve => server.close(() => resolve()))
  server.closeIdleConnections()
  // cluster mode: the others stop placing sessions here first; each session's lease is given back as it closes,
  // and the node it belongs on now adopts it on its next heartbeat (no 440: the link closed before the lease went)
  await clusterNode?.leave()
  await system.close()
  await clusterNode?.close()
  server.closeAllConnections()
  await closed
  // Each thread has its own media folder, all named after the process's pid; each file is removed by its own
  // request, the folders here.
  await removeMediaTempDirs()
  logger.info('stopped')
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
// started by npm run demo: its end, even by kill -9, stops the gateway too (parent-watch.ts)
whenParentGone(() => void stop('parent gone'))
