/**
 * @module platform/baileys/sandbox-agents
 * TLS trust for the sandbox's media host. Baileys uploads with node `https` + `fetchAgent`, but downloads (history
 * sync blobs, app-state snapshots) with the global `fetch`, which takes an undici `dispatcher` through
 * `config.options` (PLATFORM-PROTOCOL M4). Both trust the sandbox CA in addition to the system roots; no
 * NODE_TLS_REJECT_UNAUTHORIZED anywhere.
 *
 * undici (the package; Node's own fetch takes its dispatchers) is required by the first sandbox socket of a thread,
 * not imported with this module: a shard thread talking to the real platform never uses it, and it costs every
 * thread that loads it ~95 modules and ~4 MB of heap (measured).
 */
import https from 'node:https'
import { createRequire } from 'node:module'
import tls from 'node:tls'
import type { Agent as UndiciAgent } from 'undici'

const require = createRequire(import.meta.url)
let undici: typeof import('undici') | undefined

export interface SandboxAgents {
  /** For `fetchAgent` (uploads), the WebSocket (`agent`, wss only) and the gateway's own channel upload. */
  https: https.Agent
  /** For Baileys' `options.dispatcher` (downloads through global fetch). */
  dispatcher: UndiciAgent
  destroy(): void
}

export function sandboxAgents(caCert: string): SandboxAgents {
  const ca = [...tls.rootCertificates, caCert]
  const agent = new https.Agent({ ca, keepAlive: true })
  undici ??= require('undici') as typeof import('undici')
  const dispatcher = new undici.Agent({ connect: { ca } })
  return {
    https: agent,
    dispatcher,
    destroy: () => {
      agent.destroy()
      dispatcher.close().catch(() => undefined)
    },
  }
}
