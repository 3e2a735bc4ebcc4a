/**
 * A normal pairing and a restart log nothing above info (docs/operating.md): the real gateway pairs two sessions
 * through the sandbox with unmodified Baileys (one account with a push name, one without), is restarted on the same
 * DATA_DIR and reconnects both, and is stopped; not one line of its whole output is at warn or above. The routine
 * lines Baileys logs as errors and warnings in that life are still there, at debug: the platform's 515 after each
 * pairing, and the missing push name when the nameless account first connects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitForSession } from '../../../src/client/index.js'
import { launchGateway, pair, startWorld, type Gateway } from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

const NAMED = '15550000001' // Alice in the sandbox's demo world
const NAMELESS = '15550007777' // an account the world does not know: no push name

interface Line {
  level: number
  msg: string
  [field: string]: unknown
}

/**
 * Every JSON line of a process's whole output (the launcher keeps 64 KB: this one must still hold its start, where
 * 'gateway listening' comes within the first lines, after the start-up figures such as MAX_SESSIONS' derivation).
 */
function linesOf(gateway: Gateway): Line[] {
  const lines = gateway.proc
    .output()
    .split('\n')
    .filter(l => l.startsWith('{'))
    .map(l => JSON.parse(l) as Line)
  expect(
    lines.slice(0, 3).map(l => l.msg),
    'the output from its first lines',
  ).toContain('gateway listening')
  return lines
}

// private media URLs stay refused: allowing them is a warning at start, by design
const ENV = { LOG_LEVEL: 'debug', LOG_FORMAT: 'json', MEDIA_ALLOW_PRIVATE_URLS: 'false' }
const NO_NAME = 'no name present, ignoring presence update request...'

let world: Awaited<ReturnType<typeof startWorld>>
let gw: Gateway | undefined

beforeAll(async () => {
  world = await startWorld()
})

afterAll(async () => {
  await gw?.proc.stop()
  await world?.cleanup()
})

const routine = (lines: Line[], msg: string) => lines.filter(l => l.msg === msg && l.component === 'baileys')
const aboveInfo = (lines: Line[]) => lines.filter(l => l.level > 30).map(l => `${l.level} ${l.msg}`)

describe('logs of a normal life', () => {
  it('a pairing and a restart log nothing above info; the routine lines are at debug', async () => {
    gw = await launchGateway(world.sandbox.url, world.dataDir, ENV)
    const sessions = [await gw.createSession(), await gw.createSession()]
    await pair(gw, world.sandbox.url, sessions[0]!, NAMED)
    await pair(gw, world.sandbox.url, sessions[1]!, NAMELESS)
    await waitFor('the missing push name, logged', () => routine(linesOf(gw!), NO_NAME).length > 0)
    expect(await gw.proc.stop()).toBe(0)
    const first = linesOf(gw)

    const pairing515 = routine(first, 'stream errored out')
    expect(pairing515.map(l => [l.level, l.code])).toEqual([
      [20, '515'],
      [20, '515'],
    ])
    expect(aboveInfo(first)).toEqual([])

    gw = await launchGateway(world.sandbox.url, world.dataDir, ENV)
    for (const s of sessions) await waitForSession(gw.api, s, b => b.isConnected, { timeoutMs: 60_000 })
    expect(await gw.proc.stop()).toBe(0)
    const second = linesOf(gw)
    gw = undefined
    expect(second.some(l => l.msg === 'restored the sessions of this shard')).toBe(true)
    expect(aboveInfo(second)).toEqual([])
  }, 240_000)
})
