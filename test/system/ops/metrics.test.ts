import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scanSession } from '../../../src/demo/scan.js'
import { type OnLoopback, serveFiles } from '../../support/loopback-server.js'
import { has, parseProm, sumOf, type Series } from '../../support/prom-text.js'
import { startGateway, startSandbox, type GatewayProcess, type SandboxProcess } from '../../support/processes.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002'
const CAROL = '15550000003'

let sandbox: SandboxProcess
let gateway: GatewayProcess
let media: OnLoopback<Server> | undefined
let mediaBase: string
let photo: Buffer
let dataDir: string
let auth: { id: string; 'session-id': string }

async function call(method: string, route: string, body?: unknown) {
  const res = await fetch(`${gateway.url}${route}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

const faults = (method: string, body?: unknown) =>
  fetch(`${sandbox.url}/faults`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

async function scrape(): Promise<Series[]> {
  const res = await fetch(`${gateway.url}/metrics`)
  expect(res.headers.get('content-type')).toContain('text/plain')
  return parseProm(await res.text())
}

beforeAll(async () => {
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 90, b: 200 } } })
    .jpeg()
    .toBuffer()
  media = await serveFiles({ '/photo.jpg': { body: photo, type: 'image/jpeg' } })
  mediaBase = media.url
  sandbox = await startSandbox()
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'ops-metrics-'))
  gateway = await startGateway({ SANDBOX_URL: sandbox.url, DATA_DIR: dataDir, MEDIA_ALLOW_PRIVATE_URLS: 'true' })
  const created = (await (await fetch(`${gateway.url}/session`, { method: 'POST' })).json()) as {
    id: string
    sessionId: string
  }
  auth = { id: created.id, 'session-id': created.sessionId }
  await scanSession({
    gatewayUrl: gateway.url,
    sandboxUrl: sandbox.url,
    id: created.id,
    sessionId: created.sessionId,
    phone: ALICE,
  })
}, 180_000)

afterAll(async () => {
  await gateway?.stop()
  await sandbox?.stop()
  await media?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('/metrics after real traffic through the sandbox', () => {
  it('counts acks, error acks, media, reconnects, requests by route, sessions by state, shard and thread figures', async () => {
    expect((await call('POST', '/message', { phone: BOB, type: 'text', text: 'hello' })).status).toBe(200)
    expect(
      (
        await call('POST', '/message', {
          phone: BOB,
          type: 'image',
          image: { url: `${mediaBase}/photo.jpg`, mimetype: 'image/jpeg' },
        })
      ).status,
    ).toBe(200)
    const missing = await call('POST', '/message', {
      phone: BOB,
      type: 'image',
      image: { url: `${mediaBase}/missing.jpg`, mimetype: 'image/jpeg' },
    })
    expect(missing.body.message).toBe('error parser file from url 404 Not Found')

    expect((await faults('POST', { rejectRecipient: CAROL, rejectCode: 479 })).status).toBe(200)
    const rejected = await call('POST', '/message', { phone: CAROL, type: 'text', text: 'refused' })
    expect(rejected.body.message).toContain('error 479')
    await faults('DELETE')

    // A dropped socket: the session reconnects on its own.
    expect((await faults('POST', { dropSessionOf: ALICE })).status).toBe(200)
    const reconnected = await waitFor(
      'a reconnect',
      async () => {
        const m = await scrape()
        return sumOf(m, 'gateway_reconnects_total') >= 1 ? m : undefined
      },
      60_000,
    )
    expect(sumOf(reconnected, 'gateway_reconnects_total')).toBeGreaterThanOrEqual(1)
    await waitFor(
      'connected again',
      async () => (await call('GET', '/session')).body.isConnected === true || undefined,
      60_000,
    )

    // Threads flush their counters once a second: poll until everything arrived.
    const m = await waitFor(
      'the worker counters',
      async () => {
        const s = await scrape()
        return sumOf(s, 'gateway_platform_acks_total', { result: 'ok' }) >= 2 &&
          sumOf(s, 'gateway_platform_error_acks_total', { code: '479' }) >= 1 &&
          sumOf(s, 'gateway_media_downloads_total', { result: 'http_status' }) >= 1
          ? s
          : undefined
      },
      60_000,
    )
    expect(sumOf(m, 'gateway_platform_acks_total', { result: 'ok' })).toBe(2)
    expect(sumOf(m, 'gateway_platform_acks_total', { result: 'error' })).toBe(1)
    expect(sumOf(m, 'gateway_platform_error_acks_total', { code: '479' })).toBe(1)
    expect(sumOf(m, 'gateway_media_downloads_total', { result: 'ok' })).toBe(1)
    expect(sumOf(m, 'gateway_media_downloaded_bytes_total')).toBe(photo.length)

    // Requests by route pattern, method and status, with a latency histogram.
    const sends = { name: 'gateway_http_request_duration_seconds_count', route: '/message', method: 'POST' }
    expect(sumOf(m, sends.name, { route: sends.route, method: sends.method, status_code: '200' })).toBe(2)
    expect(sumOf(m, sends.name, { route: sends.route, method: sends.method, status_code: '500' })).toBe(2)
    expect(has(m, 'gateway_http_request_duration_seconds_bucket', { route: '/message', le: '0.1' })).toBe(true)
    expect(m.some(s => s.labels.route?.includes('@') || s.labels.route?.includes('?'))).toBe(false)
    expect(has(m, 'gateway_http_request_duration_seconds_count', { route: '/metrics' })).toBe(false)

    expect(sumOf(m, 'gateway_sessions', { state: 'connected' })).toBe(1)
    expect(sumOf(m, 'gateway_sessions')).toBe(1)
    // One session: the first shard runs a thread, the other has none (a shard starts once the running ones are
    // full or busy: SHARD_FILL)
    const mine = '0'
    for (const shard of ['0', '1']) {
      expect(has(m, 'gateway_shard_queue_depth', { shard })).toBe(true)
      expect(has(m, 'gateway_shard_task_wait_seconds', { shard, quantile: '0.99' })).toBe(true)
      expect(sumOf(m, 'gateway_shard_threads', { shard })).toBe(shard === mine ? 1 : 0)
    }
    expect(sumOf(m, 'gateway_shard_task_run_seconds', { quantile: '0.99' })).toBeGreaterThan(0)
    for (const thread of ['main', `shard-${mine}`]) {
      expect(has(m, 'gateway_event_loop_delay_seconds', { thread, quantile: '0.99' })).toBe(true)
    }
    expect(has(m, 'gateway_event_loop_delay_seconds', { thread: `shard-${mine === '0' ? 1 : 0}` })).toBe(false)
    expect(has(m, 'process_resident_memory_bytes')).toBe(true)
  }, 180_000)
})
