/**
 * MAX_SESSIONS unset is what the machine holds, and the real gateway says so at start: one info line with the
 * figure, both limits' figures and which one bound it (src/actors/session-capacity.ts, the derivation's rules in
 * test/unit/actors/session-capacity.test.ts). Set by the operator, it is theirs and nothing is said.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { machineSessionCapacity } from '../../../src/actors/session-capacity.js'
import { startGateway, type GatewayProcess } from '../../support/processes.js'
import { waitFor } from '../../support/wait-for.js'

const running: Array<{ gateway: GatewayProcess; dir: string }> = []
afterEach(async () => {
  for (const { gateway, dir } of running.splice(0)) {
    await gateway.stop()
    rmSync(dir, { recursive: true, force: true })
  }
})

interface LogLine {
  level: number
  msg: string
  maxSessions?: number
  bound?: string
}

/** The JSON log lines of a gateway started with `env`, once it logged that it listens. */
async function startupLog(env: Record<string, string>): Promise<LogLine[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'session-capacity-'))
  const gateway = await startGateway(
    { DATA_DIR: dir, SHARDS: '1', LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
    [],
    {
      until: 'listening',
    },
  )
  running.push({ gateway, dir })
  await waitFor('the listening line', async () => gateway.output().includes('gateway listening') || undefined, 30_000)
  return gateway
    .output()
    .trim()
    .split('\n')
    .map(line => JSON.parse(line) as LogLine)
}

const capacityLines = (lines: LogLine[]) => lines.filter(l => l.msg.startsWith('MAX_SESSIONS'))

describe('MAX_SESSIONS at start', () => {
  it("unset, the gateway logs the machine's figure and how it was reached", async () => {
    const expected = machineSessionCapacity()
    const [line, ...more] = capacityLines(await startupLog({}))
    expect(more).toEqual([])
    expect(line).toMatchObject({ level: 30, maxSessions: expected.sessions, bound: expected.bound })
    expect(line!.msg).toMatch(
      new RegExp(
        `^MAX_SESSIONS ${expected.sessions} from this machine, bound by its (memory|open files): memory \\d+ MB`,
      ),
    )
  }, 90_000)

  it('set by the operator, nothing is derived or said', async () => {
    expect(capacityLines(await startupLog({ MAX_SESSIONS: '40' }))).toEqual([])
  }, 90_000)
})
