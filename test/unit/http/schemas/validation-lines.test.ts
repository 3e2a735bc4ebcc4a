import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { CLIENT_MESSAGES } from '../../../../src/http/schemas/validation-lines.js'
import { makeApp } from '../../../support/fakes/fake-system.js'

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** `<path>` is a field path; any other `<name>` a value. */
const PATTERNS = CLIENT_MESSAGES.map(
  m => new RegExp(`^${escapeRegExp(m).replace('<path>', '[A-Za-z.]+').replace(/<\w+>/g, '.+')}$`),
)

describe('the messages a client can get', () => {
  it('covers every line the HTTP layer produces for a broad set of bad requests', async () => {
    const { app, auth } = makeApp()
    const bodies: [string, object][] = [
      ['/message', {}],
      ['/message', { type: 'x' }],
      ['/message', { phone: '1', type: 'video', video: { duration: 0 } }],
      ['/message', { group: 'x', type: 'location', location: { latitude: 0, longitude: 200, name: 3 } }],
      ['/message', { type: 'contact', contact: { name: 1, phone: '1' } }],
      ['/message', { type: 'image', image: 'x' }],
      ['/message', { type: 'document', document: { url: 'ftp://a', size: -1 } }],
      ['/message', { type: 'text', text: 1 }],
      ['/status', { type: 'audio' }],
      ['/status', { type: 'video', video: { duration: '1' } }],
      ['/typing', { type: 'x' }],
    ]
    const lines: string[] = []
    for (const [path, body] of bodies)
      lines.push(...(await request(app).post(path).set(auth).send(body)).body.message.split('\n'))
    for (const path of [
      '/group/member',
      '/group/member?groupId=a&groupId=b',
      '/group/x',
      '/channel/message?before=x',
      '/channel/message?channelId=a',
      '/channel/message?channelId=a&before=1&before=2',
    ]) {
      lines.push(...(await request(app).get(path).set(auth)).body.message.split('\n'))
    }
    expect(lines.length).toBeGreaterThan(20)
    const undocumented = lines.filter(line => !PATTERNS.some(p => p.test(line)))
    expect(undocumented).toEqual([])
  })
})
