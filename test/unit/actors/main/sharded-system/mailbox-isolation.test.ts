/**
 * @module test/unit/actors/main/sharded-system/mailbox-isolation
 * Commands of one session complete in arrival order; a slow command of one session holds up neither another
 * session on the same thread nor its own GET /session; a full shard refuses the session that fills it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { GatewayError } from '../../../../../src/protocol/errors.js'
import {
  cleanup,
  fake,
  fakeEvents,
  pairedSession,
  sessionOnShard,
  snapshotOf,
  startSystem,
} from '../../../../support/actor-system.js'
import { startTrickleServer, type TrickleServer } from '../../../../support/fakes/trickle-server.js'
import { waitFor } from '../../../../support/wait-for.js'

let server: TrickleServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  await cleanup()
})

const text = (t: string) => ({
  type: 'sendMessage' as const,
  destination: { kind: 'phone' as const, phone: '5511988887777' },
  content: { type: 'text' as const, text: t },
})

describe('mailbox', () => {
  it('completes the commands of one session in arrival order', async () => {
    const system = await startSystem()
    const s = await pairedSession(system)
    // Earlier commands are slower: without the mailbox they would finish last.
    const delays = [300, 200, 100, 0, 50, 0]
    const done: number[] = []
    await Promise.all(delays.map((ms, i) => system.run(s.id, text(`slow:${ms}`)).then(() => done.push(i))))
    expect(done).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('a slow media download of one session delays neither another session on its thread nor its own GET /session', async () => {
    server = await startTrickleServer()
    const system = await startSystem()
    const a = await sessionOnShard(system, 0)
    const b = await sessionOnShard(system, 0)
    for (const s of [a, b]) {
      await waitFor('a QR', () => snapshotOf(system, s)?.qrcode, 20_000, 25)
      fake(s.id, 'scan')
      await waitFor('connected', () => snapshotOf(system, s)?.isConnected, 20_000, 25)
    }

    let slowDone = false
    const slow = system
      .run(a.id, {
        type: 'sendMessage',
        destination: { kind: 'phone', phone: '5511' },
        content: { type: 'image', image: { url: server.url, mimetype: 'image/png' } },
      })
      .finally(() => {
        slowDone = true
      })
    await server.requested // a's send is now downloading, and will not finish until released

    expect(
      await system.run(b.id, { type: 'sendTyping', destination: { kind: 'phone', phone: '5522' }, kind: 'text' }),
    ).toEqual({ id: b.id })
    expect(await system.run(b.id, text('quick'))).toEqual({ messageId: expect.any(String) })
    expect(snapshotOf(system, a)?.isConnected).toBe(true)
    expect(slowDone).toBe(false)

    // a's own next command waits behind its download (mailbox order)...
    let typingDone = false
    const aTyping = system
      .run(a.id, { type: 'sendTyping', destination: { kind: 'phone', phone: '5533' }, kind: 'text' })
      .then(r => {
        typingDone = true
        return r
      })
    await new Promise(resolve => setTimeout(resolve, 200))
    expect(typingDone).toBe(false)
    // ...and runs once the download ends.
    server.release()
    expect(await slow).toEqual({ messageId: expect.any(String) })
    expect(await aTyping).toEqual({ id: a.id })
  })

  it('a full shard refuses the session holding more than its share (429), still admits the others, and 503s at twice the limit', async () => {
    const system = await startSystem({ SHARDS: '1', MAX_QUEUE_PER_SHARD: '2' })
    const [s, t, u, v] = [
      await pairedSession(system),
      await pairedSession(system),
      await pairedSession(system),
      await pairedSession(system),
    ]
    const refusal = (work: Promise<unknown>) =>
      work.then(
        () => undefined,
        (e: unknown) => e as GatewayError,
      )
    const first = system.run(s!.id, text('slow:800'))
    const second = system.run(s!.id, text('slow:0'))
    // The shard holds its limit, all of it s's: s is the cause, so s is refused...
    const third = await refusal(system.run(s!.id, text('slow:0')))
    expect([third?.code, third?.status, third?.retryAfterSeconds]).toEqual(['SESSION_BUSY', 429, 1])
    // ...while a session with nothing in the shard still gets in (its even share is at least one command)...
    const fromT = system.run(t!.id, text('slow:800'))
    const fromU = system.run(u!.id, text('slow:800'))
    // ...until the shard holds twice its limit: real overload, 503 for everyone.
    const fromV = await refusal(system.run(v!.id, text('slow:0')))
    expect([fromV?.code, fromV?.status]).toEqual(['OVERLOADED', 503])
    for (const done of await Promise.all([first, second, fromT, fromU]))
      expect(done).toEqual({ messageId: expect.any(String) })
    // Once drained, the shard takes commands again.
    expect(await system.run(v!.id, text('after'))).toEqual({ messageId: expect.any(String) })
  })

  it('a client that hangs up gets its call rejected at once and its queued command is dropped', async () => {
    const system = await startSystem()
    const events = fakeEvents()
    const s = await pairedSession(system)
    const first = system.run(s.id, text('slow:400'))
    const controller = new AbortController()
    const second = system.run(s.id, text('dropped'), controller.signal)
    controller.abort()
    await expect(second).rejects.toBeDefined()
    await first
    // The worker skipped the aborted command; later commands still run.
    expect(await system.run(s.id, text('next'))).toEqual({ messageId: expect.any(String) })
    await waitFor('the next send', () => events.some(e => e.text === 'next'), 20_000, 25)
    expect(events.filter(e => e.event === 'send-started').map(e => e.text)).toEqual(['slow:400', 'next'])
  })
})
