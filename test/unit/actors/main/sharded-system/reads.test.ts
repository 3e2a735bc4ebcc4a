/**
 * @module test/unit/actors/main/sharded-system/reads
 * A read (groups, members, channels, posts) through the real shard threads: the session's thread answers the spec
 * body's JSON as bytes of their own, which the HTTP front end writes as they are; errors travel as for any command,
 * and the read keeps its session place until its answer is sent, like a command.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, pairedSession, startSystem } from '../../../../support/actor-system.js'

afterEach(cleanup)

const GROUP = '120363000000000001@g.us'

describe('a read', () => {
  it("answers the spec body's JSON, built on the session's thread, as one block of bytes of its own", async () => {
    const system = await startSystem()
    const s = await pairedSession(system)
    const bytes = await system.read(s.id, { type: 'getGroup', groupId: GROUP })
    expect(Buffer.from(bytes).toString('utf8')).toBe(
      JSON.stringify({ id: GROUP, name: 'g', description: '', picture: '', created: null }),
    )
    expect([bytes.byteOffset, bytes.buffer.byteLength]).toEqual([0, bytes.byteLength])
    const page = await system.read(s.id, { type: 'listChannelMessages', channelId: '1@newsletter' })
    expect(Buffer.from(page).toString('utf8')).toBe('{"docs":[],"before":0}')
  })

  it('is refused like a command before pairing, and holds its session place until its answer is sent', async () => {
    const system = await startSystem({ MAX_PENDING_PER_SESSION: '1' })
    const unpaired = await system.createSession()
    await expect(system.read(unpaired.id, { type: 'listGroups' })).rejects.toMatchObject({
      code: 'SESSION_NOT_CONNECTED',
    })

    const s = await pairedSession(system)
    let send = () => {}
    const sent = new Promise<void>(resolve => {
      send = resolve
    })
    expect(Buffer.from(await system.read(s.id, { type: 'listGroups' }, undefined, sent)).toString()).toBe('{"docs":[]}')
    await expect(system.read(s.id, { type: 'listChannels' })).rejects.toMatchObject({ code: 'SESSION_BUSY' })
    send()
    await sent
    expect(Buffer.from(await system.read(s.id, { type: 'listChannels' })).toString()).toBe('{"docs":[]}')
  })
})
