/**
 * The session's existing conversations on a real lmdb store: what was seen is known again after a restart (a new
 * instance loading the same store), the oldest go first past CONVERSATIONS_MAX (a number seen again is kept), a
 * failing store only logs, and clearing forgets them in memory and in the store.
 */
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { Conversations } from '../../../../src/actors/session/conversations.js'
import type { ConversationStore } from '../../../../src/storage/conversations.js'
import { storeHarness } from '../../../support/store-harness.js'

const stores = storeHarness('conversations-')
const log = pino({ level: 'silent' })

describe('Conversations', () => {
  it('knows after a restart what it saw before', async () => {
    const dir = stores.tempDir()
    const first = new Conversations(stores.openStore(dir).conversations('s'), 10, log)
    await first.load()
    first.add(['5511', '5522'])
    first.add(['5511'])
    await first.settled()
    await stores.closeAll()
    const again = new Conversations(stores.openStore(dir).conversations('s'), 10, log)
    expect(again.has('5511')).toBe(false)
    await again.load()
    expect([again.has('5511'), again.has('5522'), again.has('5533')]).toEqual([true, true, false])
  })

  it('forgets the numbers seen longest ago past its bound, in memory and in the store', async () => {
    const store = stores.openStore(stores.tempDir()).conversations('s')
    const kept = new Conversations(store, 3, log)
    await kept.load()
    kept.add(['1'], 1)
    kept.add(['2'], 2)
    kept.add(['3'], 3)
    kept.add(['1'], 4) // seen again: now the newest
    kept.add(['4', '5'], 5)
    expect(['1', '2', '3', '4', '5'].filter(p => kept.has(p))).toEqual(['1', '4', '5'])
    await kept.settled()
    expect((await store.all()).map(c => c.phone).sort()).toEqual(['1', '4', '5'])
  })

  it('logs a failing store and goes on', async () => {
    const broken: ConversationStore = {
      all: async () => [],
      put: async () => {
        throw new Error('disk full')
      },
      remove: async () => undefined,
      clear: async () => undefined,
    }
    const warnings: string[] = []
    const spy = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) })
    const conversations = new Conversations(broken, 10, spy)
    conversations.add(['5511'])
    await conversations.settled()
    expect(conversations.has('5511')).toBe(true)
    expect(warnings.join('')).toContain('storing conversations failed')
  })

  it('clear forgets them in memory and in the store', async () => {
    const store = stores.openStore(stores.tempDir()).conversations('s')
    const conversations = new Conversations(store, 10, log)
    conversations.add(['5511'])
    await conversations.settled()
    await conversations.clear()
    expect(conversations.has('5511')).toBe(false)
    expect(await store.all()).toEqual([])
  })
})
