/**
 * Worker → main telemetry (src/metrics/telemetry-receiver.ts): a worker thread's counts and event-loop delay reach
 * the main thread in batches; restores are announced.
 */
import { randomUUID } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { TelemetryReceiver } from '../../../src/metrics/telemetry-receiver.js'
import { takeThreadCounts } from '../../../src/metrics/thread-counters.js'
import { waitFor } from '../../support/wait-for.js'

const receivers: TelemetryReceiver[] = []
afterEach(() => {
  for (const r of receivers.splice(0)) r.close()
  takeThreadCounts()
})

describe('worker → main telemetry', () => {
  it("a worker thread's counts and event-loop delay reach the main thread in batches; restores are announced", async () => {
    const channelName = `ops-test-${randomUUID()}`
    const receiver = new TelemetryReceiver(channelName)
    receivers.push(receiver)
    const worker = new Worker(new URL('../../support/fakes/counting-worker.mjs', import.meta.url), {
      workerData: { channelName },
    })
    try {
      const acks = await waitFor(
        'the batched counts',
        () => receiver.counters().find(c => c.key === 'acks' && c.value === 1000),
        20_000,
        25,
      )
      expect(acks.labels).toEqual({ result: 'ok' })
      expect(receiver.loopDelays().get('shard-7')).toBeDefined()
      await waitFor('the restore announcement', () => receiver.isRestored(7), 20_000, 25)
      receiver.threadLost(7)
      expect(receiver.isRestored(7)).toBe(false)
      expect(receiver.loopDelays().has('shard-7')).toBe(false)
    } finally {
      await worker.terminate()
    }
  }, 30_000)
})
