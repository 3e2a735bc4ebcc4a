/**
 * The README's 3-node example (compose.cluster.yaml) is a cluster that would start: every gateway's settings pass
 * the gateway's own validation, each node has its own NODE_ID and advertises the address the others reach it at
 * (its service name), all share one REDIS_URL and DATA_KEY, and that Redis keeps an append-only file and never
 * evicts (docs/cluster.md, "Durability").
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { loadSettings } from '../../../src/gateway-settings.js'
import { readRepoFile } from '../../support/readme.js'

interface Service {
  build?: string
  image?: string
  command?: string[]
  ports?: string[]
  environment?: Record<string, string>
}

const compose = parseYaml(readRepoFile('compose.cluster.yaml'), { merge: true }) as {
  services: Record<string, Service>
}
const gateways = Object.entries(compose.services).filter(([, s]) => s.build === '.')
const fromDotEnv: Record<string, string> = {
  DATA_KEY: randomBytes(32).toString('base64'),
  CLUSTER_SECRET: randomBytes(32).toString('base64url'),
}
// compose substitutes ${DATA_KEY:?…} and ${CLUSTER_SECRET:?…} from .env; the test plays that part
const envOf = (s: Service) =>
  Object.fromEntries(
    Object.entries(s.environment ?? {}).map(([k, v]) => [k, /^\$\{(\w+):\?/.exec(v) ? fromDotEnv[k]! : v]),
  )

describe('compose.cluster.yaml', () => {
  it('runs three gateway nodes whose settings the gateway accepts', () => {
    expect(gateways).toHaveLength(3)
    for (const [, service] of gateways) expect(() => loadSettings(envOf(service))).not.toThrow()
  })

  it('gives each node its own NODE_ID, its own port and an ADVERTISE_URL at its service name', () => {
    const nodes = gateways.map(([name, service]) => ({ name, service, settings: loadSettings(envOf(service)) }))
    expect(new Set(nodes.map(c => c.settings.NODE_ID)).size).toBe(3)
    expect(new Set(nodes.flatMap(c => c.service.ports ?? [])).size).toBe(3)
    for (const { name, settings } of nodes) expect(new URL(settings.ADVERTISE_URL!).hostname).toBe(name)
    expect(new Set(nodes.map(c => c.settings.REDIS_URL)).size).toBe(1)
    expect(new Set(nodes.map(c => c.service.environment!.DATA_KEY)).size).toBe(1)
    // the secret that makes a node a node comes from each node's configuration, the same on every node
    expect(new Set(nodes.map(c => c.service.environment!.CLUSTER_SECRET)).size).toBe(1)
    expect(nodes[0]!.service.environment!.CLUSTER_SECRET).toMatch(/^\$\{CLUSTER_SECRET:\?/)
  })

  it('points them at a Redis with an append-only file that never evicts', () => {
    const redisHost = new URL(loadSettings(envOf(gateways[0]![1])).REDIS_URL!).hostname
    const redis = compose.services[redisHost]!
    expect(redis.image).toMatch(/^redis:/)
    const args = redis.command!.join(' ')
    expect(args).toContain('--appendonly yes')
    expect(args).toContain('--maxmemory-policy noeviction')
  })
})
