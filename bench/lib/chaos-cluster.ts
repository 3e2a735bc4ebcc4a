/**
 * @module bench/lib/chaos-cluster
 * The processes the chaos bench runs and breaks: three gateway nodes (production lease settings, each on a free
 * loopback port, its log kept in a file for the post-mortem), one redis-server with the persistence docs/cluster.md
 * asks for (AOF, everysec: a restart keeps the data), and the view a load balancer has of the nodes: the ones
 * running and not frozen. Every change of that view goes to `onNodes` (the load client's balancer).
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import path from 'node:path'
import { startGateway, type GatewayProcess } from '../../test/support/processes.js'
import type { RedisServer } from '../../test/support/redis-server.js'
import { text, type RedisConnection } from '../../src/cluster/store/connection.js'
import { sessionKeys } from '../../src/cluster/store/keys.js'

export const NODES = 3

export class ChaosCluster {
  readonly nodes: (GatewayProcess | undefined)[] = Array.from({ length: NODES }, () => undefined)
  readonly frozen = new Set<number>()
  readonly #logs: WriteStream[] = []
  /** `node-<n> <url> <started at>` of every start, for the post-mortem (a restarted node has a new port). */
  readonly history: string[] = []

  constructor(
    readonly redis: RedisServer,
    readonly raw: RedisConnection,
    readonly env: Record<string, string>,
    /** Each node's DATA_DIR is a folder in it, kept across its restarts; its log is `node-<n>.log` there. */
    readonly workDir: string,
    readonly onNodes: (urls: string[]) => void,
  ) {}

  /** The nodes a balancer sends to: running and not frozen. */
  liveUrls(): string[] {
    return this.nodes.flatMap((n, i) => (n && !this.frozen.has(i) ? [n.url] : []))
  }

  #changed(): void {
    this.onNodes(this.liveUrls())
  }

  /** Starts node `i` (NODE_ID `node-<i+1>`), or starts it again on the same DATA_DIR, as an operator would. */
  async start(i: number): Promise<GatewayProcess> {
    const dir = path.join(this.workDir, `node-${i + 1}`)
    mkdirSync(dir, { recursive: true })
    this.#logs[i] ??= createWriteStream(path.join(this.workDir, `node-${i + 1}.log`), { flags: 'a' })
    const log = this.#logs[i]!
    log.write(`\n--- start ${new Date().toISOString()}\n`)
    const gw = await startGateway(
      { ...this.env, DATA_DIR: dir, REDIS_URL: this.redis.url, NODE_ID: `node-${i + 1}` },
      [],
      { exitWithParent: true, onOutput: chunk => log.write(chunk) },
    )
    this.nodes[i] = gw
    this.history.push(`node-${i + 1} ${gw.url} ${new Date().toISOString()}`)
    this.#changed()
    return gw
  }

  /** Takes node `i` out of the balancer, signals it, and waits for its exit. */
  async stop(i: number, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const gw = this.nodes[i]
    this.nodes[i] = undefined
    this.#changed()
    this.#logs[i]?.write(`\n--- ${signal} ${new Date().toISOString()}\n`)
    await gw?.stop(signal)
  }

  /** SIGSTOP (the balancer stops sending to it, as its health check would) or SIGCONT (back in the balancer). */
  freeze(i: number, frozen: boolean): void {
    const gw = this.nodes[i]
    if (!gw) return
    this.#logs[i]?.write(`\n--- ${frozen ? 'SIGSTOP' : 'SIGCONT'} ${new Date().toISOString()}\n`)
    if (frozen) {
      this.frozen.add(i)
      this.#changed()
      gw.child.kill('SIGSTOP')
    } else {
      gw.child.kill('SIGCONT')
      this.frozen.delete(i)
      this.#changed()
    }
  }

  /** The NODE_ID holding a session's lease, undefined when none does (or Redis does not answer). */
  async ownerOf(sessionId: string): Promise<string | undefined> {
    try {
      return text(await this.raw.command(['GET', sessionKeys(sessionId).lease]))?.split('|')[0]
    } catch {
      return undefined
    }
  }

  async stopAll(): Promise<void> {
    for (const i of this.frozen) this.nodes[i]?.child.kill('SIGCONT')
    await Promise.allSettled(this.nodes.map(n => n?.stop('SIGKILL')))
    for (const log of this.#logs) log.end()
  }
}
