/**
 * @module platform/baileys/sandbox-agents
 * TLS trust for the sandbox's media host. Baileys uploads with node `https` + `fetchAgent`, but downloads (history
 * sync blobs, app-state snapshots) with the global `fetch`, which takes an undici `dispatcher` through
 * `config.options` (PLATFORM-PROTOCOL M4). Both trust the sandbox CA in addition to the system roots; no
 * NODE_TLS_REJECT_UNAUTHORIZED anywhere.
 */
import https from 'node:https'
import tls from 'node:tls'
import { Agent as UndiciAgent } from 'undici'

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
  const dispatcher = new UndiciAgent({ connect: { ca } })
  return {
    https: agent,
    dispatcher,
    destroy: () => {
      agent.destroy()
      dispatcher.close().catch(() => undefined)
    },
  }
}
