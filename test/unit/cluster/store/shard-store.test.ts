/**
 * What a cluster node's shard threads are given to open cluster mode's store (cluster/store/shard-store.ts): the
 * module to load and exactly the settings of Redis and the leases, as plain data. The node's other secrets (the
 * cluster's shared secret, the front's tokens) never cross to a thread, where the platform library runs.
 */
import { fileURLToPath } from 'node:url'
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { shardStoreEngine } from '../../../../src/cluster/store/shard-store.js'
import { settingsWithSecrets } from '../../../support/secret-settings.js'

describe('shardStoreEngine', () => {
  const settings = settingsWithSecrets()
  const engine = shardStoreEngine(settings)

  it("gives a shard thread the Redis and lease settings, none of the cluster's secret", () => {
    expect(engine.settings).toEqual({
      REDIS_URL: settings.REDIS_URL,
      NODE_ID: settings.NODE_ID,
      CLUSTER_LEASE_TTL_MS: settings.CLUSTER_LEASE_TTL_MS,
      CLUSTER_RENEW_MS: settings.CLUSTER_RENEW_MS,
    })
    expect(structuredClone(engine)).toEqual(engine)
  })

  it('names a module the thread can load: the engine itself', () => {
    expect(fs.existsSync(fileURLToPath(engine.module))).toBe(true)
    expect(engine.module).toMatch(/\/cluster\/store\/shard-store\.(ts|js)$/)
  })
})
