/**
 * @module test/support/system/sandbox-world
 * The world of the sandbox's feature tests (test/system/sandbox/): a sandbox in-process with Alice (picture, an
 * address book she shares, Carol hidden from her status), Bob, a group of the three (Carol's phone hidden) and
 * Alice's channel with three posts; Alice paired and logged in with an unmodified Baileys client.
 * `sandboxWorld()` registers its own beforeAll and afterAll (./sandbox-fixture.ts).
 */
import { beforeAll } from 'vitest'
import type { WorldChannelMessage, WorldPatch } from '../../../src/sandbox/types.js'
import type { TestSocket } from './baileys-client.js'
import { sandboxFixture } from './sandbox-fixture.js'

export const ALICE = '15550000001'
export const BOB = '15550000002'
export const CAROL = '15550000003'
export const GROUP = '120363000000000001@g.us'
export const CHANNEL = '120363000000000009@newsletter'

/**
 * The accounts, group and channel of the world (also the platform link's sandbox test's, with its own channel
 * posts): Alice with a picture and an address book she shares, Carol hidden from her status; Bob; a group of the
 * three, Carol's phone hidden; Alice's channel, followed by Bob.
 */
export function teamWorld(channelMessages: WorldChannelMessage[]): WorldPatch {
  return {
    accounts: [
      {
        phone: ALICE,
        name: 'Alice',
        picture: true,
        syncContacts: true,
        contacts: [
          { phone: BOB, name: 'Bob Builder' },
          { phone: CAROL, name: 'Carol' },
        ],
        statusPrivacy: { setting: 'blacklist', list: [CAROL] },
      },
      { phone: BOB, name: 'Bob', picture: true },
    ],
    groups: [
      {
        id: GROUP,
        name: 'Team',
        description: 'the team',
        created: '2025-01-01T00:00:00Z',
        participants: [{ phone: ALICE, admin: 'superadmin' }, { phone: BOB }, { phone: CAROL, hidePhone: true }],
      },
    ],
    channels: [
      {
        id: CHANNEL,
        name: 'News',
        created: '2025-01-01T00:00:00Z',
        owner: ALICE,
        followers: [BOB],
        messages: channelMessages,
      },
    ],
  }
}

/** The sandbox of ./sandbox-fixture.ts on this world, Alice logged in (`alice`) by the file's beforeAll. */
export function sandboxWorld() {
  const fixture = sandboxFixture({
    world: teamWorld([
      { type: 'text', text: 'hello' },
      { type: 'image', caption: 'pic' },
      { type: 'poll', name: 'Q?', options: ['a', 'b'] },
    ]),
  })
  const world = Object.assign(fixture, { alice: undefined as unknown as TestSocket })
  beforeAll(async () => {
    world.alice = (await world.login(ALICE)).socket
  })
  return world
}
