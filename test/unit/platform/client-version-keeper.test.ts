/**
 * Which web client version a shard's links name (src/platform/client-version-keeper.ts): pinned, looked up once
 * and shared, kept in the store for a start without network, the bundled one as the last resort with a warning, and
 * looked up again after a 405, at most once a minute however many sessions were refused.
 */
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import {
  CLIENT_VERSION_FACT,
  clientVersionKeeper,
  LOOKUP_RETRY_MS,
  RELEARN_MIN_MS,
} from '../../../src/platform/client-version-keeper.js'
import type { ClientVersion } from '../../../src/platform/client-version.js'
import type { PlatformFacts } from '../../../src/storage/types.js'

const CURRENT: ClientVersion = [2, 3000, 1050000000]
const NEWER: ClientVersion = [2, 3000, 1060000000]

function world(answers: Array<ClientVersion | Error>, stored?: string) {
  const facts = new Map<string, string>(stored === undefined ? [] : [[CLIENT_VERSION_FACT, stored]])
  const store: PlatformFacts = {
    read: async name => facts.get(name),
    write: async (name, value) => {
      facts.set(name, value)
    },
  }
  const lines: Array<{ level: number; msg: string }> = []
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) })
  let lookups = 0
  let clock = 1_000_000
  const lookup = async () => {
    const answer = answers[Math.min(lookups++, answers.length - 1)]
    if (answer instanceof Error) throw answer
    return answer as ClientVersion
  }
  return {
    facts,
    warnings: () => lines.filter(l => l.level === 40).map(l => l.msg),
    lookups: () => lookups,
    tick: (ms: number) => {
      clock += ms
    },
    keeper: (pinned?: string, withLookup = true) =>
      clientVersionKeeper({ pinned, lookup: withLookup ? lookup : undefined, facts: store, log, now: () => clock }),
  }
}

describe('the client version keeper', () => {
  it('looks the current version up once for every session of the thread, and stores it', async () => {
    const w = world([CURRENT])
    const keeper = w.keeper()
    expect(await Promise.all([keeper.current(), keeper.current(), keeper.current()])).toEqual([
      CURRENT,
      CURRENT,
      CURRENT,
    ])
    expect(await keeper.current()).toEqual(CURRENT)
    expect(w.lookups()).toBe(1)
    expect(w.facts.get(CLIENT_VERSION_FACT)).toBe('2.3000.1050000000')
    expect(w.warnings()).toEqual([])
  })

  it('without network, uses the last version learned (a restart), with one warning', async () => {
    const w = world([new Error('getaddrinfo ENOTFOUND')], '2.3000.1040000000')
    const keeper = w.keeper()
    expect(await keeper.current()).toEqual([2, 3000, 1040000000])
    expect(await keeper.current()).toEqual([2, 3000, 1040000000])
    expect(w.lookups()).toBe(1) // not once per link: the fallback serves a while
    expect(w.warnings()).toHaveLength(1)
    expect(w.warnings()[0]).toContain('using the last one learned')
  })

  it('with nothing learned ever, falls back to the bundled version (undefined) with a warning, and tries again later', async () => {
    const w = world([new Error('timeout'), CURRENT])
    const keeper = w.keeper()
    expect(await keeper.current()).toBeUndefined()
    expect(w.warnings()[0]).toContain("using the client library's bundled one")
    w.tick(LOOKUP_RETRY_MS)
    expect(await keeper.current()).toEqual(CURRENT)
    expect(w.lookups()).toBe(2)
  })

  it('a stored value that is not a.b.c is not used', async () => {
    const w = world([new Error('offline')], '2.3000.1; drop')
    expect(await w.keeper().current()).toBeUndefined()
  })

  it('after a 405 looks it up again, at most once a minute however many sessions were refused', async () => {
    const w = world([CURRENT, NEWER, NEWER])
    const keeper = w.keeper()
    expect(await keeper.current()).toEqual(CURRENT)
    for (let i = 0; i < 100; i++) keeper.refused(CURRENT)
    expect(await keeper.current()).toEqual(NEWER)
    expect(w.lookups()).toBe(2)
    keeper.refused(NEWER) // within the minute: the answer stands
    expect(await keeper.current()).toEqual(NEWER)
    expect(w.lookups()).toBe(2)
    w.tick(RELEARN_MIN_MS)
    keeper.refused(CURRENT) // a link that still named the old version: the newer one may be the fix already
    expect(await keeper.current()).toEqual(NEWER)
    expect(w.lookups()).toBe(2)
    keeper.refused(NEWER)
    await keeper.current()
    expect(w.lookups()).toBe(3)
    expect(w.facts.get(CLIENT_VERSION_FACT)).toBe('2.3000.1060000000')
  })

  it('PLATFORM_CLIENT_VERSION pins the version: nothing is looked up, a 405 changes nothing', async () => {
    const w = world([CURRENT])
    const keeper = w.keeper('2.2400.7')
    expect(keeper.pinned).toBe(true)
    expect(await keeper.current()).toEqual([2, 2400, 7])
    keeper.refused([2, 2400, 7])
    expect(await keeper.current()).toEqual([2, 2400, 7])
    expect(w.lookups()).toBe(0)
  })

  it('a platform module without a lookup leaves its links their own version, quietly', async () => {
    const w = world([CURRENT], '2.3000.1040000000')
    expect(await w.keeper(undefined, false).current()).toBeUndefined()
    expect(w.warnings()).toEqual([])
  })
})
