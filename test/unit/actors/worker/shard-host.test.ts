/**
 * A shard thread's host (src/actors/worker/shard-host.ts) starts on demand a stored session that a command reaches
 * before the session's start, and only where that session belongs: in one process the shard its row names (else
 * hash(id) mod SHARDS), so no two shards ever run one session; on a cluster node wherever the main thread routed the
 * command, since rows name no shard there and the node places the sessions it adopts by load, not by hash.
 */
import { afterEach, describe, expect, it } from 'vitest'
import pino from 'pino'
import { ShardHost } from '../../../../src/actors/worker/shard-host.js'
import { platformLoader } from '../../../../src/actors/worker/platform-loader.js'
import { SnapshotPublisher } from '../../../../src/actors/worker/publisher.js'
import { MediaSlots, newMediaSlotMemories } from '../../../../src/media/media-slots.js'
import { GatewayError } from '../../../../src/protocol/errors.js'
import { CLUSTER_POLICY, EMBEDDED_POLICY, type SessionPolicy } from '../../../../src/protocol/session-policy.js'
import { shardOf } from '../../../../src/protocol/shard.js'
import { loadSettings } from '../../../../src/gateway-settings.js'
import type { Store } from '../../../../src/storage/types.js'
import { cleanup, fakeEvents, fakeLinkModule } from '../../../support/actor-system.js'
import { storeHarness } from '../../../support/store-harness.js'
import { waitFor } from '../../../support/wait-for.js'

const SHARDS = 2
const stores = storeHarness('shard-host-')
const logger = pino({ level: 'silent' })
const hosts: ShardHost[] = []
const publishers: SnapshotPublisher[] = []

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.shutdown()
  for (const publisher of publishers.splice(0)) publisher.close()
  await cleanup()
})

/** The host of one shard thread, as worker.ts builds it, on the fake link. */
function shardHost(store: Store, shard: number, policy: SessionPolicy): ShardHost {
  const settings = loadSettings({ DATA_DIR: stores.tempDir(), SHARDS: String(SHARDS), LOG_LEVEL: 'silent' })
  const memory = newMediaSlotMemories(SHARDS)
  const publisher = new SnapshotPublisher(`shard-host-test-${process.pid}`)
  publishers.push(publisher)
  const host = new ShardHost({
    shard,
    shards: SHARDS,
    store,
    settings,
    logger,
    publisher,
    loadPlatform: platformLoader({
      linkModule: fakeLinkModule,
      sandboxUrl: undefined,
      logger,
      facts: store.platformFacts,
    }),
    policy,
    media: {
      downloads: new MediaSlots({ shard, perSession: 1, perShard: 4, perProcess: 4, shared: memory.downloads }),
      cpu: new MediaSlots({ shard, perShard: 2, perProcess: 2, shared: memory.cpu }),
    },
  })
  hosts.push(host)
  return host
}

/** A store holding one session's row as a cluster node writes it (no shard named: hash(id) mod SHARDS then). */
async function storeWithSession(id: string): Promise<Store> {
  const store = stores.openStore(stores.tempDir())
  const now = Date.now()
  await store.putSession({ id, secretHash: 'ab'.repeat(32), createdAt: now, qrDeadline: now + 60_000 })
  return store
}

const ID = 'c0ffee00-0000-4000-8000-000000000001'
const hashShard = shardOf(ID, SHARDS)
const otherShard = (hashShard + 1) % SHARDS
const abort = new AbortController().signal
/** GET /session/proxy: a command that needs no connection, so its answer shows only that the session was found. */
const getProxy = { type: 'getSessionProxy' } as const

/** The platform connections opened for the session so far, on every shard. */
const linksOf = (events: { session: string; event: string }[]) =>
  events.filter(e => e.session === ID && e.event === 'link-created').length

/** What the client gets: the command's answer, or the error's code and HTTP status. */
async function answerOf(host: ShardHost): Promise<unknown> {
  try {
    return await host.run(ID, getProxy, abort)
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err
    return { code: err.code, status: err.status }
  }
}

describe('ShardHost: a command that reaches a stored session before its start', () => {
  it('cluster node: starts it on the shard the main thread routed it to, though its hash names another (not a 404)', async () => {
    // After a shard thread's crash the node re-places its adopted sessions by load (actors/main/shard-placement.ts):
    // a command that overtakes the restart lands on a shard other than hash(id) mod SHARDS.
    const events = fakeEvents()
    const host = shardHost(await storeWithSession(ID), otherShard, CLUSTER_POLICY)
    expect(await answerOf(host)).toEqual({ proxy: null, source: 'none' })
    await waitFor('the session connecting', () => linksOf(events) === 1)
  })

  it('one process: a shard refuses a session another shard restores (404), and the session’s own shard answers', async () => {
    const store = await storeWithSession(ID)
    const wrong = shardHost(store, otherShard, EMBEDDED_POLICY)
    expect(await answerOf(wrong)).toEqual({ code: 'SESSION_NOT_FOUND', status: 404 })
    const own = shardHost(store, hashShard, EMBEDDED_POLICY)
    expect(await answerOf(own)).toEqual({ proxy: null, source: 'none' })
  })
})
