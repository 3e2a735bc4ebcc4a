/**
 * @module bench/bare/gateway-target
 * The gateway as `bench/bare/client.ts` drives it (TARGET=gateway): N sessions paired over the HTTP API, each loop's
 * text sent with `POST /message` (answered 200 after the platform's ack and the store's commit), and the gateway
 * process's CPU read from /proc, split by kind of thread. The client runs it at nice 19, so the load it makes
 * competes as little as it can with the process it measures. Runs under tsx (Node only). With REDIS_PID (a cluster
 * node's redis-server) that process's CPU is read too, as a kind of its own beside the gateway's.
 */
import { cpuSeconds, cpuSecondsByThread, rssMb } from '../lib/proc.js'
import { headersOf, pairSessions } from '../lib/sessions.js'
import type { Target } from './target.js'

/** What each Node thread name is in the gateway (see `cpuSecondsByThread`). */
const THREAD_KINDS: Record<string, string> = {
  MainThread: 'HTTP thread',
  WorkerThread: 'shard threads',
  V8Worker: "V8's helpers",
  'libuv-worker': 'libuv pool',
}
/** A cluster node's redis-server (REDIS_PID), read over the same burst: beside the gateway's CPU, not in its total. */
export const REDIS_KIND = 'redis-server (not in the total)'

export async function gatewayTarget(options: {
  sandboxUrl: string
  n: number
  phoneBase: number
  contactPhone: (k: number) => string
}): Promise<Target> {
  const gatewayUrl = process.env.GATEWAY_URL
  const pid = Number(process.env.GATEWAY_PID)
  if (!gatewayUrl || !pid) throw new Error('TARGET=gateway needs GATEWAY_URL and GATEWAY_PID')
  const redisPid = Number(process.env.REDIS_PID ?? 0)
  const t0 = performance.now()
  const sessions = await pairSessions({
    gatewayUrl,
    sandboxUrl: options.sandboxUrl,
    count: options.n,
    concurrency: 5,
    phoneBase: options.phoneBase,
  })
  return {
    runtime: `gateway (node ${process.version})`,
    pairSeconds: (performance.now() - t0) / 1000,
    async send(k, text) {
      const res = await fetch(`${gatewayUrl}/message`, {
        method: 'POST',
        headers: { ...headersOf(sessions[k]!), 'content-type': 'application/json' },
        body: JSON.stringify({ phone: options.contactPhone(k), type: 'text', text }),
      })
      if (res.status !== 200) throw new Error(`POST /message → ${res.status} ${await res.text()}`)
      return ((await res.json()) as { messageId: string }).messageId
    },
    cpu() {
      const byThread: Record<string, number> = {}
      for (const [name, s] of cpuSecondsByThread(pid)) {
        const kind = THREAD_KINDS[name] ?? 'other threads'
        byThread[kind] = (byThread[kind] ?? 0) + s * 1000
      }
      if (redisPid) byThread[REDIS_KIND] = cpuSeconds(redisPid) * 1000
      return { ms: cpuSeconds(pid) * 1000, byThread }
    },
    rssMb: () => rssMb(pid),
    close: () => undefined,
  }
}
