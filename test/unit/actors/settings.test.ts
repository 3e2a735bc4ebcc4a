/**
 * The actors' slice of the settings (src/actors/settings.ts) and what crosses to a shard thread (`shardSettings`):
 * the actors', links', storage's and logs' settings, none of the front's or the cluster's secrets, as plain data. A
 * worker thread, or the platform library running in it, cannot leak the front's bearer tokens or the cluster's
 * secret.
 */
import { describe, expect, it } from 'vitest'
import { ACTOR_SETTINGS, shardSettings } from '../../../src/actors/settings.js'
import { PLATFORM_SETTINGS } from '../../../src/platform/settings.js'
import { settingsWithSecrets } from '../../support/secret-settings.js'

const settings = settingsWithSecrets()

describe('shardSettings', () => {
  it("gives a shard thread its actors', links', storage's and logs' settings, none of the front's or the cluster's", () => {
    const shard = Object.keys(shardSettings(settings))
    expect(shard).toEqual(
      expect.arrayContaining([...Object.keys(ACTOR_SETTINGS), ...Object.keys(PLATFORM_SETTINGS), 'DATA_KEY']),
    )
    // cluster mode's store engine carries Redis' address (cluster/store/shard-store.ts)
    const others = ['CREATE_SESSION_TOKEN', 'METRICS_TOKEN', 'CLUSTER_SECRET', 'TRUST_PROXY', 'PORT', 'REDIS_URL']
    for (const secret of others) expect(shard, secret).not.toContain(secret)
    // it crosses to the thread as plain data
    expect(structuredClone(shardSettings(settings))).toEqual(shardSettings(settings))
  })
})
