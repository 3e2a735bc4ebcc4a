/**
 * @module bench/lib/cluster-world
 * The world of the cluster benches: one redis-server, the sandbox at nice 19, and gateway nodes in cluster mode on
 * them with the production lease and heartbeat settings (the same DATA_KEY and CLUSTER_SECRET, each its own
 * DATA_DIR and NODE_ID `node-<i+1>`, the creation limits off), plus a Redis connection of the bench's own to read
 * where each session runs (its lease).
 *
 * @example
 * const world = await startClusterWorld('roll', { SEND_RATE_PER_SECOND: '0' })
 * await world.startNode(0)
 * await world.ownerOf(session) // 'node-1'
 * await world.close()
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startGateway, startSandbox, type GatewayProcess, type SandboxProcess } from '../../test/support/processes.js'
import { startRedisServer, type RedisServer } from '../../test/support/redis-server.js'
import { connectRedis, text, type RedisConnection } from '../../src/cluster/store/connection.js'
import { sessionKeys } from '../../src/cluster/store/keys.js'

export interface ClusterWorld {
  redis: RedisServer
  /** The bench's own connection to Redis. */
  raw: RedisConnection
  sandbox: SandboxProcess
  /** The nodes by index; undefined while one is down. */
  nodes: (GatewayProcess | undefined)[]
  /** Starts node `i` (again, with the same NODE_ID, after it stopped). */
  startNode(i: number): Promise<GatewayProcess>
  /** The node holding a session's lease ("node-2"), or undefined. */
  ownerOf(s: { id: string }): Promise<string | undefined>
  /** Kills every node, stops the sandbox and Redis, removes the nodes' folders. */
  close(): Promise<void>
}

export async function startClusterWorld(name: string, nodeEnv: Record<string, string> = {}): Promise<ClusterWorld> {
  const env = {
    DATA_KEY: randomBytes(32).toString('base64'),
    CLUSTER_SECRET: randomBytes(32).toString('base64url'),
    SESSION_CREATE_PER_MINUTE: '0',
    UNPAIRED_PER_CLIENT: '0',
    ...nodeEnv,
  }
  const redis = await startRedisServer()
  const raw = await connectRedis(redis.url)
  const sandbox = await startSandbox(undefined, undefined, { nice: 19 })
  const dirs: string[] = []
  const nodes: (GatewayProcess | undefined)[] = []
  return {
    redis,
    raw,
    sandbox,
    nodes,
    async startNode(i) {
      const dir = mkdtempSync(path.join(os.tmpdir(), `bench-${name}-${i}-`))
      dirs.push(dir)
      const gw = await startGateway({
        ...env,
        SANDBOX_URL: sandbox.url,
        DATA_DIR: dir,
        REDIS_URL: redis.url,
        NODE_ID: `node-${i + 1}`,
      })
      nodes[i] = gw
      return gw
    },
    ownerOf: async s => text(await raw.command(['GET', sessionKeys(s.id).lease]))?.split('|')[0],
    async close() {
      await Promise.allSettled(nodes.map(n => n?.stop('SIGKILL')))
      await raw.close()
      await sandbox.stop()
      await redis.stop()
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
    },
  }
}
