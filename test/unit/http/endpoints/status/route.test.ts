import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import { expectError } from '../../../../support/expect-error.js'
import { makeApp } from '../../../../support/fakes/fake-system.js'

const IMAGE = { url: 'https://media.test/a.jpg', mimetype: 'image/jpeg' }
const VIDEO = { url: 'https://media.test/a.mp4', mimetype: 'video/mp4', duration: 5 }

async function post(body: object) {
  const t = makeApp()
  const res = await request(t.app).post('/status').set(t.auth).send(body)
  return { res, system: t.system }
}

describe('POST /status', () => {
  const cases: [string, object, object][] = [
    ['text', { type: 'text', text: 'hello' }, { type: 'text', text: 'hello' }],
    ['image', { type: 'image', image: IMAGE }, { type: 'image', image: IMAGE }],
    ['image with caption', { type: 'image', image: IMAGE, text: 'cap' }, { type: 'image', image: IMAGE, text: 'cap' }],
    [
      'video with thumbnail',
      { type: 'video', video: { ...VIDEO, thumbnail: 'https://t.test/t.jpg' } },
      { type: 'video', video: { ...VIDEO, thumbnail: 'https://t.test/t.jpg' } },
    ],
  ]
  it.each(cases)('sends a %s status and answers exactly { statusId }', async (_n, body, content) => {
    const { res, system } = await post({ ...body, phone: '5511999999999', extra: true })
    expect(res.status).toBe(200)
    expect(res.body).toStrictEqual({ statusId: 'STATUS1' })
    expect(system.last()).toStrictEqual({ type: 'postStatus', content })
  })

  it('validates type and the field of each type', async () => {
    const cases: [object, string][] = [
      [{}, 'type should not be empty'],
      [{ type: 'audio' }, 'type must be one of the following values: text, image, video'],
      [{ type: 'text' }, 'text should not be empty'],
      [{ type: 'text', text: '' }, 'text should not be empty'],
      [{ type: 'text', text: 1 }, 'text must be a string'],
      [{ type: 'image' }, 'image should not be empty'],
      [{ type: 'image', image: {} }, 'image.url should not be empty\nimage.mimetype should not be empty'],
      [{ type: 'image', image: { url: 'https://x.test/a.jpg' } }, 'image.mimetype should not be empty'],
      [{ type: 'video' }, 'video should not be empty'],
      [
        { type: 'video', video: { url: 'https://x.test/a.mp4', mimetype: 'video/mp4' } },
        'video.duration should not be empty',
      ],
      [{ type: 'video', video: { ...VIDEO, duration: 0 } }, 'video.duration must be greater than 0'],
      [{ type: 'video', video: { ...VIDEO, duration: '5' } }, 'video.duration must be a number'],
      [{ type: 'video', video: VIDEO, text: [] }, 'text must be a string'],
    ]
    for (const [body, message] of cases) {
      const { res, system } = await post(body)
      expectError(res, 400, message)
      expect(system.commands).toHaveLength(0)
    }
  })

  it('passes the status privacy errors through', async () => {
    const t = makeApp()
    t.system.onRun = () => {
      throw new GatewayError('CONTACTS_NOT_SYNCED')
    }
    expectError(
      await request(t.app).post('/status').set(t.auth).send({ type: 'text', text: 'x' }),
      500,
      'contacts not synced, reconnect the session or set status privacy to "only share with"',
    )
    t.system.onRun = () => {
      throw new GatewayError('STATUS_ONLY_SHARE_EMPTY')
    }
    expectError(
      await request(t.app).post('/status').set(t.auth).send({ type: 'text', text: 'x' }),
      500,
      'status privacy "only share with" has no contacts',
    )
  })
})
