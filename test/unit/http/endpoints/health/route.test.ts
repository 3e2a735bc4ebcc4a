import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { createShardedSessionSystem } from '../../../../../src/actors/main/system.js'
import { loadSettings } from '../../../../../src/gateway-settings.js'
import { createApp } from '../../../../../src/http/app.js'
import { cleanup, startSystem, tempDataDir, waitForQr } from '../../../../support/actor-system.js'
import { makeApp } from '../../../../support/fakes/fake-system.js'
import { waitFor } from '../../../../support/wait-for.js'

const gatedLink = fileURLToPath(new URL('../../../../support/fakes/gated-link.ts', import.meta.url))

afterEach(cleanup)

describe('/healthz and /readyz', () => {
  it('/healthz answers ok with no session headers', async () => {
    const { app } = makeApp()
    const res = await request(app).get('/healthz')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok' })
  })

  it('/readyz is 503 starting while a shard restores its sessions, 200 ready after, 503 stopping on shutdown', async () => {
    const dataDir = tempDataDir()
    // A first run registers a session, so the next start has one to restore.
    const first = await startSystem({}, dataDir)
    await waitForQr(first, await first.createSession())
    await first.close()

    const gate = path.join(dataDir, 'open-the-gate')
    process.env.GATED_LINK_FILE = gate // read by the worker threads, which copy the environment at start
    const settings = loadSettings({ DATA_DIR: dataDir, SHARDS: '2', LOG_LEVEL: 'silent' })
    const system = await createShardedSessionSystem({
      settings,
      logger: pino({ level: 'silent' }),
      linkModule: gatedLink,
    })
    const app = createApp({ system, settings, logger: pino({ level: 'silent' }) })
    try {
      const starting = await request(app).get('/readyz')
      expect(starting.status).toBe(503)
      expect(starting.body).toEqual({ status: 'starting' })
      expect((await request(app).get('/healthz')).status).toBe(200)

      writeFileSync(gate, '')
      const ready = await waitFor(
        '/readyz to turn 200',
        async () => {
          const res = await request(app).get('/readyz')
          return res.status === 200 ? res : undefined
        },
        30_000,
        25,
      )
      expect(ready.body).toEqual({ status: 'ready' })
    } finally {
      await system.close()
      delete process.env.GATED_LINK_FILE
    }
    const stopping = await request(app).get('/readyz')
    expect(stopping.status).toBe(503)
    expect(stopping.body).toEqual({ status: 'stopping' })
  }, 90_000)
})
