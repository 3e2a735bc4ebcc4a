/**
 * The world of test/system/channels/channels.test.ts, and a sandbox started in this process with an extra "subscribed
 * channels" query id (the platform rotates those ids; the gateway takes its id from CHANNEL_LIST_QUERY_ID).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createSandbox, silenceLibsignalChatter, type WorldPatch } from '../../../src/sandbox/index.js'

export const ALICE = '15550000201'
export const BOB = '15550000202'
export const CAROL = '15550000203'

/** Not the built-in default id: the sandbox accepts it only because this world says so. */
export const CUSTOM_LIST_QUERY_ID = '9988776655443322'
export const DEFAULT_LIST_QUERY_ID = '6388546374527196'

const SEEDED = 250

/** 250 posts cycling through every type: text, image, video, poll, sticker and three the spec does not map. */
export const seededMessages = () =>
  Array.from({ length: SEEDED }, (_, i) => {
    switch (i % 10) {
      case 0:
        return { type: 'text' as const, text: `post ${i + 1}: hello ✓` }
      case 1:
        return { type: 'image' as const, caption: `picture ${i + 1}` }
      case 2:
        return { type: 'video' as const, caption: `clip ${i + 1}`, seconds: (i % 50) + 1 }
      case 3:
        return { type: 'poll' as const, name: `question ${i + 1}?`, options: ['yes', 'no', `maybe ${i + 1}`] }
      case 4:
        return { type: 'sticker' as const }
      case 5:
        return { type: 'document' as const, caption: 'a pdf' }
      case 6:
        return { type: 'audio' as const, seconds: 7 }
      case 7:
        return { type: 'location' as const, text: 'Berlin' }
      case 8:
        return { type: 'text' as const, text: '' }
      default:
        return { type: 'image' as const }
    }
  })

export const OWNED = {
  id: '120363200000000001@newsletter',
  name: "Alice's News",
  description: 'Owned by Alice',
  invite: '0029VaAliceNewsInvite01',
  created: '2024-02-02T12:00:00Z',
  picture: true,
  owner: ALICE,
  followers: [BOB],
  messages: seededMessages(),
}
export const ADMINED = {
  id: '120363200000000002@newsletter',
  name: 'Team Board',
  created: '2023-06-15T08:30:00Z',
  picture: false,
  owner: BOB,
  admins: [ALICE],
  followers: [CAROL],
  messages: [{ type: 'text' as const, text: 'board opened' }],
}
export const FOLLOWED = {
  id: '120363200000000003@newsletter',
  name: 'Daily Facts',
  created: '2022-12-31T23:00:00Z',
  picture: true,
  owner: CAROL,
  followers: [ALICE, BOB],
  messages: [],
}
export const NOT_FOLLOWED = {
  id: '120363200000000004@newsletter',
  name: "Somebody else's",
  created: '2021-01-01T00:00:00Z',
  picture: true,
  owner: CAROL,
  followers: [BOB],
  messages: [],
}

export const world = (): WorldPatch => ({
  accounts: [
    { phone: ALICE, name: 'Alice' },
    { phone: BOB, name: 'Bob' },
    { phone: CAROL, name: 'Carol' },
  ],
  channels: [OWNED, ADMINED, FOLLOWED, NOT_FOLLOWED],
})

/** A sandbox in this process (HTTP + control API on loopback, like the CLI) plus a temp DATA_DIR for the gateway. */
export async function startChannelsWorld() {
  silenceLibsignalChatter()
  const sandbox = await createSandbox({ port: 0, world: world(), subscribedChannelsQueryIds: [CUSTOM_LIST_QUERY_ID] })
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-channels-'))
  return {
    sandbox,
    dataDir,
    async cleanup() {
      await sandbox.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** What GET /channel/message must show for one sandbox post (the record) seeded from `seed`. */
export function expectedDoc(
  record: any,
  seed: ReturnType<typeof seededMessages>[number],
  invite: string,
  mediaHost: string,
) {
  const base = {
    id: record.id,
    serverId: record.serverId,
    url: `https://whatsapp.com/channel/${invite}/${record.serverId}`,
    created: record.created,
  }
  const mediaUrl = `https://${mediaHost}${record.media?.directPath}`
  switch (seed.type) {
    case 'text':
      return { ...base, type: 'text', text: seed.text }
    case 'image':
      return {
        ...base,
        type: 'image',
        text: seed.caption ?? '',
        image: { url: mediaUrl, thumbnail: `data:image/jpeg;base64,${record.media.thumbnail}`, mimetype: 'image/jpeg' },
      }
    case 'video':
      return {
        ...base,
        type: 'video',
        text: seed.caption ?? '',
        video: {
          url: mediaUrl,
          thumbnail: `data:image/jpeg;base64,${record.media.thumbnail}`,
          duration: seed.seconds,
          mimetype: 'video/mp4',
        },
      }
    case 'poll':
      return { ...base, type: 'poll', text: '', polling: { name: seed.name, options: seed.options } }
    case 'sticker':
      return { ...base, type: 'sticker', text: '', sticker: { url: mediaUrl, mimetype: 'image/webp' } }
    default:
      return { ...base, type: 'text', text: 'UNSUPPORTED TYPE' }
  }
}
