import { randomUUID } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { GatewayError } from '../../src/protocol/errors.js'
import { mediaFailureReason, observeAck, observeMediaDownload } from '../../src/metrics/observe.js'
import { TelemetryReceiver } from '../../src/metrics/telemetry-receiver.js'
import { countInThread, takeThreadCounts } from '../../src/metrics/thread-counters.js'
import { waitFor } from '../actors/helpers.js'

const receivers: TelemetryReceiver[] = []
afterEach(() => {
  for (const r of receivers.splice(0)) r.close()
  takeThreadCounts()
})

describe('thread counters', () => {
  it('add up increments per series until taken, then start again', () => {
    countInThread('acks', { result: 'ok' })
    countInThread('acks', { result: 'ok' })
    countInThread('acks', { result: 'error' })
    countInThread('mediaBytes', {}, 1500)
    countInThread('mediaBytes', {}, 0)
    expect(takeThreadCounts()).toEqual([
      { key: 'acks', labels: { result: 'ok' }, value: 2 },
      { key: 'acks', labels: { result: 'error' }, value: 1 },
      { key: 'mediaBytes', labels: {}, value: 1500 },
    ])
    expect(takeThreadCounts()).toEqual([])
  })
})

describe('observe hooks', () => {
  it('count ok acks, error acks with their code and timeouts, and pass the outcome through', async () => {
    await expect(observeAck(Promise.resolve('node'))).resolves.toBe('node')
    const rejected = new GatewayError('PLATFORM_REJECTED', 'the platform rejected the message (error 463)')
    await expect(observeAck(Promise.reject(rejected))).rejects.toBe(rejected)
    await expect(observeAck(Promise.reject(new GatewayError('PLATFORM_TIMEOUT')))).rejects.toThrow()
    await expect(observeAck(Promise.reject(new GatewayError('SESSION_NOT_CONNECTED')))).rejects.toThrow()
    expect(takeThreadCounts()).toEqual([
      { key: 'acks', labels: { result: 'ok' }, value: 1 },
      { key: 'acks', labels: { result: 'error' }, value: 1 },
      { key: 'errorAcks', labels: { code: '463' }, value: 1 },
      { key: 'acks', labels: { result: 'timeout' }, value: 1 },
    ])
  })

  it('count media bytes and a fixed failure reason', async () => {
    await observeMediaDownload(Promise.resolve({ bytes: 321 }))
    await expect(observeMediaDownload(Promise.reject(new Error('error parser file from url 404 Not Found')))).rejects.toThrow()
    expect(takeThreadCounts()).toEqual([
      { key: 'mediaDownloads', labels: { result: 'ok' }, value: 1 },
      { key: 'mediaBytes', labels: {}, value: 321 },
      { key: 'mediaDownloads', labels: { result: 'http_status' }, value: 1 },
    ])
    const reasons = ['timeout after 60000 ms', 'file larger than 10 bytes', '10.0.0.1 resolves to a private address',
      'aborted', 'invalid url', 'unsupported protocol ftp:', 'too many redirects', 'getaddrinfo ENOTFOUND x.invalid']
      .map(detail => mediaFailureReason(`error parser file from url ${detail}`))
    expect(reasons).toEqual(['timeout', 'too_large', 'private_address', 'aborted', 'bad_url', 'bad_url', 'bad_url', 'network'])
  })
})

describe('worker → main telemetry', () => {
  it('a worker thread\'s counts and event-loop delay reach the main thread in batches; restores are announced', async () => {
    const channelName = `ops-test-${randomUUID()}`
    const receiver = new TelemetryReceiver(channelName)
    receivers.push(receiver)
    const worker = new Worker(new URL('./fixtures/counting-worker.mjs', import.meta.url), { workerData: { channelName } })
    try {
      const acks = await waitFor(() => receiver.counters().find(c => c.key === 'acks' && c.value === 1000), 'the batched counts')
      expect(acks.labels).toEqual({ result: 'ok' })
      expect(receiver.loopDelays().get('shard-7')).toBeDefined()
      await waitFor(() => receiver.isRestored(7), 'the restore announcement')
      receiver.threadLost(7)
      expect(receiver.isRestored(7)).toBe(false)
      expect(receiver.loopDelays().has('shard-7')).toBe(false)
    } finally {
      await worker.terminate()
    }
  }, 30_000)
})
