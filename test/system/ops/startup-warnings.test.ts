/**
 * Settings that switch a protection off start the gateway, but never silently: each is one warn line in the
 * start-up log of the real process. (A Node below package.json's engines is refused: test/system/build/old-node.)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startGateway, type GatewayProcess } from '../../support/processes.js'
import { waitFor } from '../../support/wait-for.js'

const running: Array<{ gateway: GatewayProcess; dir: string }> = []
afterEach(async () => {
  for (const { gateway, dir } of running.splice(0)) {
    await gateway.stop()
    rmSync(dir, { recursive: true, force: true })
  }
})

/** The JSON log lines of a gateway started with `env`, once it logged that it listens. */
async function startupLog(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<Array<{ level: number; msg: string }>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'startup-warnings-'))
  const gateway = await startGateway(
    { DATA_DIR: dir, SHARDS: '1', LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
    nodeArgs,
    { until: 'listening' },
  )
  running.push({ gateway, dir })
  await waitFor('the listening line', async () => gateway.output().includes('gateway listening') || undefined, 30_000)
  return gateway
    .output()
    .trim()
    .split('\n')
    .map(line => JSON.parse(line) as { level: number; msg: string })
}

const WARN = 40

describe('start-up warnings', () => {
  it('VERIFY_PLATFORM_SIGNATURES=false logs a warning that says what is unchecked', async () => {
    const warnings = (await startupLog({ VERIFY_PLATFORM_SIGNATURES: 'false' }))
      .filter(l => l.level === WARN)
      .map(l => l.msg)
    expect(warnings).toContain(
      "VERIFY_PLATFORM_SIGNATURES=false: the platform's certificate chain and the phone's " +
        'account signature are not checked (a man in the middle could pose as the platform)',
    )
  }, 90_000)

  it('the defaults start without that warning, or the SSRF one', async () => {
    const lines = await startupLog({})
    expect(lines.map(l => l.msg)).toContain('gateway listening')
    expect(
      lines.filter(l => l.level >= WARN && /VERIFY_PLATFORM_SIGNATURES|MEDIA_ALLOW_PRIVATE_URLS/.test(l.msg)),
    ).toEqual([])
  }, 90_000)

  it('names the Node it runs on in the listening line, and says nothing more on Node 24', async () => {
    const lines = await startupLog({})
    const listening = lines.find(l => l.msg === 'gateway listening') as { node?: string } | undefined
    expect(listening?.node).toBe(process.versions.node)
    expect(lines.filter(l => l.level >= WARN && l.msg.startsWith('Node '))).toEqual([])
  }, 90_000)
})
