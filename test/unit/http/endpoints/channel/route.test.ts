import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import type { ChannelMessage } from '../../../../../src/protocol/spec-types.js'
import { expectError } from '../../../../support/expect-error.js'
import { CHANNEL, keys, makeApp } from '../../../../support/fakes/fake-system.js'

const CHANNEL_ID = '120363000000000002@newsletter'

describe('GET /channel', () => {
  it('lists channels with exactly the Channel fields', async () => {
    const { app, auth, system } = makeApp()
    system.onRun = () => ({ docs: [{ ...CHANNEL, subscribers: 10 }] })
    const res = await request(app).get('/channel').set(auth)
    expect(res.status).toBe(200)
    expect(res.body).toStrictEqual({ docs: [CHANNEL] })
    expect(system.last()).toStrictEqual({ type: 'listChannels' })
  })
})

describe('GET /channel/message', () => {
  const message = (patch: Partial<ChannelMessage>): ChannelMessage => ({
    id: 'A1',
    serverId: 7,
    url: 'https://ch.test/7',
    type: 'text',
    text: 'hi',
    created: '2025-01-01T00:00:00.000Z',
    ...patch,
  })

  it('asks for the newest page without before, and answers { docs, before }', async () => {
    const { app, auth, system } = makeApp()
    system.onRun = () => ({ docs: [message({})], before: 7 })
    const res = await request(app).get('/channel/message').query({ channelId: CHANNEL_ID }).set(auth)
    expect(res.status).toBe(200)
    expect(keys(res.body)).toEqual(['before', 'docs'])
    expect(res.body).toStrictEqual({ docs: [message({})], before: 7 })
    expect(system.last()).toStrictEqual({ type: 'listChannelMessages', channelId: CHANNEL_ID })
  })

  it('passes before as a number; an empty before means the newest page', async () => {
    const { app, auth, system } = makeApp()
    await request(app).get(`/channel/message?channelId=${CHANNEL_ID}&before=25`).set(auth)
    expect(system.last()).toStrictEqual({ type: 'listChannelMessages', channelId: CHANNEL_ID, before: 25 })
    await request(app).get(`/channel/message?channelId=${CHANNEL_ID}&before=`).set(auth)
    expect(system.last()).toStrictEqual({ type: 'listChannelMessages', channelId: CHANNEL_ID })
  })

  it('answers before=0 (the oldest page sent back once more) with an empty last page, without asking the platform', async () => {
    const { app, auth, system } = makeApp()
    const res = await request(app).get('/channel/message').query({ channelId: CHANNEL_ID, before: '0' }).set(auth)
    expect(res.status).toBe(200)
    expect(res.body).toStrictEqual({ docs: [], before: 0 })
    expect(system.commands).toHaveLength(0)
  })

  it('refuses a malformed channelId, as it does a malformed groupId', async () => {
    const { app, auth, system } = makeApp()
    for (const channelId of ['abc', '123@g.us', '1 2@newsletter', '@newsletter', '1@newsletter.x']) {
      const res = await request(app).get('/channel/message').query({ channelId }).set(auth)
      expectError(res, 400, 'channelId must be a channel ID ending in @newsletter')
    }
    expect(system.commands).toHaveLength(0)
  })

  it('refuses a before that is not a non-negative integer', async () => {
    const { app, auth, system } = makeApp()
    for (const before of ['abc', '00', '-1', '1.5', '1e3', ' 5', '99999999999999999999']) {
      const res = await request(app).get('/channel/message').query({ channelId: CHANNEL_ID, before }).set(auth)
      expectError(res, 400, 'before must be a non-negative integer')
    }
    expectError(
      await request(app).get(`/channel/message?channelId=${CHANNEL_ID}&before=1&before=2`).set(auth),
      400,
      'before must be a string',
    )
    expect(system.commands).toHaveLength(0)
  })

  it('answers the spec message for a missing channelId, and joins it with a bad before', async () => {
    const { app, auth } = makeApp()
    expectError(
      await request(app).get('/channel/message').set(auth),
      400,
      'channelId should not be empty\nchannelId must be a string',
    )
    expectError(
      await request(app).get('/channel/message?before=x').set(auth),
      400,
      'channelId should not be empty\nchannelId must be a string\nbefore must be a non-negative integer',
    )
    expectError(
      await request(app).get('/channel/message?channelId=a&before=x').set(auth),
      400,
      'channelId must be a channel ID ending in @newsletter\nbefore must be a non-negative integer',
    )
    expectError(
      await request(app).get('/channel/message?channelId=a&channelId=b').set(auth),
      400,
      'channelId must be a string',
    )
    expectError(await request(app).get('/channel/message?channelId=').set(auth), 400, 'channelId should not be empty')
  })

  it('answers 500 channel not found from the system', async () => {
    const { app, auth, system } = makeApp()
    system.onRun = () => {
      throw new GatewayError('CHANNEL_NOT_FOUND')
    }
    expectError(await request(app).get('/channel/message?channelId=9@newsletter').set(auth), 500, 'channel not found')
  })

  it('keeps each message to its spec fields, with only the object of its type', async () => {
    const { app, auth, system } = makeApp()
    const image = message({ type: 'image', image: { url: 'u', thumbnail: 't', mimetype: 'image/jpeg' } })
    const video = message({ type: 'video', video: { url: 'u', thumbnail: 't', duration: 3, mimetype: 'video/mp4' } })
    const sticker = message({ type: 'sticker', text: '', sticker: { url: 'u', mimetype: 'image/webp' } })
    const poll = message({ type: 'poll', text: '', polling: { name: 'q?', options: ['a', 'b'] } })
    system.onRun = () => ({
      docs: [
        { ...image, raw: { x: 1 }, image: { ...image.image, mediaKey: 'secret' } },
        video,
        sticker,
        { ...poll, votes: 3 },
      ],
      before: 0,
      cursor: 'x',
    })
    const res = await request(app).get('/channel/message').query({ channelId: CHANNEL_ID }).set(auth)
    expect(res.body).toStrictEqual({ docs: [image, video, sticker, poll], before: 0 })
  })
})
