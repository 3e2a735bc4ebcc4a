/**
 * @module test/unit/protocol/commands
 * The command map at compile time (tsc checks this file; vitest's `expectTypeOf` is a no-op when it runs): each
 * command's reply crosses from the actor's handler to the HTTP route as its own type, with no cast on the way. A
 * handler that answers another command's shape, or a route that reads one, does not compile.
 */
import { describe, expectTypeOf, it } from 'vitest'
import type { SessionSystem } from '../../../src/actors/main/session-system.js'
import type { ShardThread } from '../../../src/actors/main/shard-thread.js'
import type { CommandHandlers } from '../../../src/actors/session/commands.js'
import type { CommandOf, ReplyValue, SessionProxy } from '../../../src/protocol/commands.js'
import type { Group } from '../../../src/protocol/spec-types.js'

const send: CommandOf<'sendMessage'> = {
  type: 'sendMessage',
  destination: { kind: 'phone', phone: '5511988887777' },
  content: { type: 'text', text: 'hi' },
}

describe('the command map', () => {
  it('gives each command its own reply type', () => {
    expectTypeOf<ReplyValue<CommandOf<'sendMessage'>>>().toEqualTypeOf<{ messageId: string }>()
    expectTypeOf<ReplyValue<CommandOf<'getGroup'>>>().toEqualTypeOf<Group>()
    expectTypeOf<ReplyValue<CommandOf<'setSessionProxy'>>>().toEqualTypeOf<SessionProxy>()
  })

  it('types the reply from the shard to the route: a send resolves with a messageId', () => {
    const viaShard = (pool: ShardThread) => pool.command('id', send)
    const viaSystem = (system: SessionSystem) => system.run('id', send)
    expectTypeOf(viaShard).returns.resolves.toEqualTypeOf<{ messageId: string }>()
    expectTypeOf(viaSystem).returns.resolves.toEqualTypeOf<{ messageId: string }>()
    // @ts-expect-error a send answers a messageId: the route cannot read a status id off it
    const misread = async (system: SessionSystem) => (await system.run('id', send)).statusId
    expectTypeOf(misread).toBeFunction()
  })

  it("refuses a handler that answers another command's shape", () => {
    // @ts-expect-error the handler of sendMessage must answer { messageId }, not postStatus's { statusId }
    const wrong: CommandHandlers['sendMessage'] = async () => ({ statusId: 'status-1' })
    expectTypeOf(wrong).toBeFunction()
  })
})
