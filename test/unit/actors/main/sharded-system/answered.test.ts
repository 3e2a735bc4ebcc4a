/**
 * @module test/unit/actors/main/sharded-system/answered
 * A command run with its HTTP answer (`answered`) keeps its place among the session's MAX_PENDING_PER_SESSION
 * until that answer settles, not only until the actor replied: a client that never reads its answers cannot have
 * more of them in flight than its cap.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, pairedSession, startSystem } from '../../../../support/actor-system.js'

afterEach(cleanup)

const typing = {
  type: 'sendTyping' as const,
  destination: { kind: 'phone' as const, phone: '5511988887777' },
  kind: 'text' as const,
}

/** A promise and the function that settles it: an answer still being written, then sent. */
function answer(): { sent: Promise<void>; send: () => void } {
  let send = () => {}
  const sent = new Promise<void>(resolve => {
    send = resolve
  })
  return { sent, send }
}

describe('a command with its answer', () => {
  it('holds its session place until the answer is sent; another session is not held back', async () => {
    const system = await startSystem({ MAX_PENDING_PER_SESSION: '2' })
    const s = await pairedSession(system)
    const other = await pairedSession(system)
    const first = answer()
    const second = answer()
    // both commands are done (the actor replied), their answers still being written
    expect(await system.run(s.id, typing, undefined, first.sent)).toEqual({ id: s.id })
    expect(await system.run(s.id, typing, undefined, second.sent)).toEqual({ id: s.id })

    await expect(system.run(s.id, typing)).rejects.toMatchObject({ code: 'SESSION_BUSY' })
    expect(await system.run(other.id, typing)).toEqual({ id: other.id })

    first.send()
    await first.sent
    expect(await system.run(s.id, typing)).toEqual({ id: s.id })
  })
})
