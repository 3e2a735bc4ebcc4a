/**
 * @module cluster/peer-calls
 * What one node asks of another on its own behalf (no client behind it): "adopt these sessions now", sent when a
 * session is created for that node and when this node hands sessions over (a release, a SIGTERM), so the next node
 * starts them at once instead of at its next heartbeat. Signed like a forwarded request (peer-auth.ts). Never
 * throws: a node that does not answer adopts them on its next heartbeat anyway.
 */
import type { Logger } from 'pino'
import type { Forwarder } from './forward.js'
import { ADOPT_PATH } from './front-paths.js'
import type { NodeDirectory } from './node-directory.js'

/** How long a node waits for another to take a session before it lets the heartbeat do it. */
const ADOPT_TIMEOUT_MS = 3_000

export interface PeerCalls {
  /** Asks `node` to adopt `ids` now; resolves once it answered, failed or timed out. */
  adopt(node: string, ids: string[]): Promise<void>
}

export function peerCalls(forwarder: Forwarder, directory: NodeDirectory, log: Logger): PeerCalls {
  return {
    async adopt(node, ids) {
      const peer = node === directory.node ? undefined : directory.get(node)
      if (!peer || ids.length === 0) return
      try {
        const status = await forwarder.call(peer, ADOPT_PATH, { ids }, ADOPT_TIMEOUT_MS)
        if (status !== 204) log.warn({ node, status }, 'cluster: a node did not take the sessions handed to it')
      } catch (err) {
        log.info({ err, node }, 'cluster: a node did not answer; it takes the sessions on its next heartbeat')
      }
    },
  }
}
