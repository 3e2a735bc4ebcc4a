/**
 * @module test/unit/actors/main/shard-thread
 * A client that hangs up aborts its command on the one shard that runs it: no other shard's thread hears of it (it
 * would have nothing to abort, and could only keep the abort).
 */
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { BroadcastChannel } from 'node:worker_threads'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { ShardThread } from '../../../../src/actors/main/shard-thread.js'
import { shardSettings } from '../../../../src/actors/settings.js'
import { newMediaSlotMemories } from '../../../../src/media/media-slots.js'
import { EMBEDDED_POLICY } from '../../../../src/protocol/session-policy.js'
import { loadSettings } from '../../../../src/gateway-settings.js'
import { waitFor } from '../../../support/wait-for.js'

const filename = fileURLToPath(new URL('../../../support/fakes/abort-worker.mjs', import.meta.url))
const open: { pools: ShardThread[]; channels: BroadcastChannel[] } = { pools: [], channels: [] }
afterEach(async () => {
  for (const channel of open.channels.splice(0)) channel.close()
  await Promise.all(open.pools.splice(0).map(pool => pool.destroy()))
})

/** Two shards of one system, on the fake thread (abort-worker-body.ts), and what their threads report. */
function twoShards() {
  const channelName = `shard-thread-test-${randomUUID()}`
  const settings = shardSettings(loadSettings({ SHARDS: '2', LOG_LEVEL: 'silent' }))
  const mediaSlots = newMediaSlotMemories(2)
  const pools = [0, 1].map(
    shard =>
      new ShardThread({
        filename,
        logger: pino({ level: 'silent' }),
        data: { shard, shards: 2, settings, linkModule: '', channelName, mediaSlots, policy: EMBEDDED_POLICY },
      }),
  )
  open.pools.push(...pools)
  const reports: { shard: number; id?: string; started?: string }[] = []
  const heard = new BroadcastChannel(`${channelName}:heard`)
  heard.onmessage = (event: unknown) => reports.push((event as MessageEvent<(typeof reports)[number]>).data)
  open.channels.push(heard)
  const send = { type: 'sendMessage', destination: { kind: 'phone', phone: '5511988887777' } } as const
  /** Starts a send of session `id` on `shard`; resolves once it runs there, with the client's hang-up. */
  const running = async (shard: number, id: string) => {
    const controller = new AbortController()
    const call = pools[shard]!.command(id, { ...send, content: { type: 'text', text: id } }, controller.signal)
    await waitFor(`${id} running`, () => reports.some(r => r.started === id), 20_000, 25)
    return async () => {
      controller.abort()
      await expect(call).rejects.toBeDefined()
    }
  }
  const heardBy = (shard: number) => reports.filter(r => r.shard === shard && r.id !== undefined).map(r => r.id)
  return { running, heardBy }
}

describe('shard thread aborts', () => {
  it('reach only the shard that runs the aborted task', async () => {
    const { running, heardBy } = twoShards()
    const hangUps = [await running(1, 'a'), await running(0, 'b'), await running(1, 'c')]
    for (const hangUp of hangUps) await hangUp()
    // Both threads run, and each hears what is posted to it in order: once shard 0 heard b's abort and shard 1 c's,
    // an abort posted to every thread would have been heard there before them (a's by shard 0, b's by shard 1).
    await waitFor('the owners heard their aborts', () => heardBy(0).includes('b') && heardBy(1).includes('c'))
    expect(heardBy(0)).toEqual(['b'])
    expect(heardBy(1)).toEqual(['a', 'c'])
  })
})
