/**
 * The real gateway process when ffmpeg cannot make a video's thumbnail: with FFMPEG_PATH at a missing file it
 * starts, warns once, and the recipient gets the video with the default (grey, square) thumbnail; with an ffmpeg
 * that hangs, the send still succeeds once FFMPEG_TIMEOUT_MS kills it, and that ffmpeg saw none of the gateway's
 * secrets (DATA_KEY, CREATE_SESSION_TOKEN are set on this gateway) in its environment.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  inbox,
  launchGateway,
  mediaServer,
  pair,
  reply,
  startWorld,
  withSession,
  type Gateway,
  type Session,
} from '../../support/system/harness.js'
import { makeFixtures } from '../../support/system/messages-media.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002'
const TOKEN = randomBytes(24).toString('base64url')
const DATA_KEY = randomBytes(32).toString('base64')
const SECRETS = { CREATE_SESSION_TOKEN: TOKEN, DATA_KEY }
const SLOW = 240_000

let world: Awaited<ReturnType<typeof startWorld>>
let media: Awaited<ReturnType<typeof mediaServer>>
let scripts: string
let gw: Gateway | undefined
let session: Session

beforeAll(async () => {
  scripts = mkdtempSync(path.join(os.tmpdir(), 'e2e-ffmpeg-'))
  const fx = await makeFixtures()
  world = await startWorld()
  media = await mediaServer({ '/clip.mp4': fx.video })
}, SLOW)
afterAll(async () => {
  await gw?.proc.stop()
  await media?.close()
  await world?.cleanup()
  rmSync(scripts, { recursive: true, force: true })
})

/** Sends the test video (no thumbnail URL, so the gateway would make one with ffmpeg) and returns Bob's copy. */
async function sendVideo(g: Gateway): Promise<any> {
  const sent = await reply(
    g.api.POST(
      '/message',
      withSession(session, {
        body: {
          phone: BOB,
          type: 'video',
          video: { url: `${media.base}/clip.mp4`, mimetype: 'video/mp4', duration: 2 },
        },
      }),
    ),
  )
  expect(sent.status).toBe(200)
  return waitFor(
    "the video in Bob's inbox",
    async () => (await inbox(world.sandbox.url, BOB)).find(m => m.id === sent.body.messageId),
    60_000,
  )
}

/** The default thumbnail: 72×72 grey (204), where one made from the 160×120 test pattern is 4:3 and colourful. */
function expectDefaultThumbnail(got: any): void {
  expect(got.media.hasThumbnail).toBe(true)
  expect([got.media.thumbnailWidth, got.media.thumbnailHeight]).toEqual([72, 72])
  for (const channel of got.media.thumbnailMeanColor as number[]) expect(Math.abs(channel - 204)).toBeLessThan(8)
}

describe('video thumbnails without a working ffmpeg', () => {
  it(
    'FFMPEG_PATH at a missing file: the gateway starts, warns once, and sends videos with the default thumbnail',
    async () => {
      const missing = path.join(scripts, 'no-such-ffmpeg')
      gw = await launchGateway(world.sandbox.url, world.dataDir, { ...SECRETS, FFMPEG_PATH: missing })
      const created = await fetch(`${gw.url}/session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      expect(created.status).toBe(200)
      session = (await created.json()) as Session
      await pair(gw, world.sandbox.url, session, ALICE)

      expectDefaultThumbnail(await sendVideo(gw))
      expectDefaultThumbnail(await sendVideo(gw))
      const warning = `FFMPEG_PATH=${missing} is not an executable file: videos are sent with the default thumbnail`
      // once at start, from the main thread: not once per shard thread, not once per video
      expect(gw.proc.output().split(warning).length - 1).toBe(1)
      await gw.proc.stop()
      gw = undefined
    },
    SLOW,
  )

  it(
    'an ffmpeg that hangs is killed at FFMPEG_TIMEOUT_MS, the video still goes, and it saw no secret',
    async () => {
      const envFile = path.join(scripts, 'env.txt')
      const hang = path.join(scripts, 'hanging-ffmpeg')
      writeFileSync(hang, `#!/bin/sh\n/usr/bin/env > '${envFile}'\nexec sleep 60\n`, { mode: 0o755 })
      gw = await launchGateway(world.sandbox.url, world.dataDir, {
        ...SECRETS,
        FFMPEG_PATH: hang,
        FFMPEG_TIMEOUT_MS: '1500',
      })
      await waitFor('reconnected', async () => (await gw!.session(session)).body.isConnected || undefined, 90_000)

      const started = Date.now()
      expectDefaultThumbnail(await sendVideo(gw))
      expect(Date.now() - started).toBeLessThan(20_000)
      expect(gw.proc.output()).toContain('FFMPEG_TIMEOUT_MS')
      const env = readFileSync(envFile, 'utf8')
      expect(env).not.toContain('DATA_KEY')
      expect(env).not.toContain(DATA_KEY)
      expect(env).not.toContain('CREATE_SESSION_TOKEN')
      expect(env).not.toContain(TOKEN)
      expect(gw.proc.output()).not.toContain('FFMPEG_PATH=')
    },
    SLOW,
  )
})
