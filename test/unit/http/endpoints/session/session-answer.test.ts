/**
 * GET /session's answer, rendered once per snapshot around the secret: the text must be exactly the JSON of the
 * Session object (the spec's fields in its order, then what the gateway adds), whatever the fields hold, and its
 * ETag the one of that text, for every poll of the same snapshot.
 */
import { describe, expect, it } from 'vitest'
import { sessionAnswer } from '../../../../../src/http/endpoints/session/session-answer.js'
import { etagOf } from '../../../../../src/http/session-wait/etag.js'
import { snapshotFor } from '../../../../support/fakes/fake-system.js'

const SECRET = 'c2VjcmV0LXNlY3JldC0x'

describe('sessionAnswer', () => {
  it('is the JSON of the Session object, fields in the order of the spec, and the ETag of that text', () => {
    const snapshot = snapshotFor('s1', { generatedId: '5511999990000@s.whatsapp.net', name: 'Ana', qrcode: 'iVBO=' })
    const { text, etag } = sessionAnswer(snapshot, SECRET)
    expect(text).toBe(
      JSON.stringify({
        id: 's1',
        generatedId: '5511999990000@s.whatsapp.net',
        name: 'Ana',
        sessionId: SECRET,
        isConnected: false,
        qrcode: 'iVBO=',
        picture: '',
      }),
    )
    expect(etag).toBe(etagOf(text))
  })

  it('escapes what the fields hold, a name that looks like the secret field among them', () => {
    const name = 'Ana "sessionId":"x" \\ \n ✓ 😀'
    const snapshot = snapshotFor('s2', { name, state: 'connected', isConnected: true, qrcode: '' })
    const secret = 'odd"secret\\'
    const body = JSON.parse(sessionAnswer(snapshot, secret).text) as Record<string, unknown>
    expect(body).toEqual({
      id: 's2',
      generatedId: '',
      name,
      sessionId: secret,
      isConnected: true,
      qrcode: '',
      picture: '',
    })
    expect(Object.keys(body)).toEqual(['id', 'generatedId', 'name', 'sessionId', 'isConnected', 'qrcode', 'picture'])
  })

  it('adds the restrictions while connected, and why a session is not connected, after the spec fields', () => {
    const restrictions = {
      reachoutTimelock: { active: true, until: '2026-12-08T10:00:00.000Z', enforcementType: 'BIZ_QUALITY' },
      newChatCap: { status: 'NONE' as const, used: 0, total: 20, cycleEndsAt: null },
    }
    const connected = snapshotFor('s3', { state: 'connected', isConnected: true, qrcode: '', restrictions })
    expect(JSON.parse(sessionAnswer(connected, SECRET).text)).toMatchObject({ isConnected: true, restrictions })
    const notConnected = snapshotFor('s3', {
      isConnected: false,
      restrictions,
      notConnected: { reason: 'proxy-refused', message: "the session's proxy failed" },
    })
    const body = JSON.parse(sessionAnswer(notConnected, SECRET).text) as Record<string, unknown>
    expect(Object.keys(body).slice(7)).toEqual(['reason', 'reasonMessage'])
    expect(body).toMatchObject({ reason: 'proxy-refused', reasonMessage: "the session's proxy failed" })
  })

  it('answers every poll of a snapshot alike, and a new snapshot of the session with its own ETag', () => {
    const snapshot = snapshotFor('s4', { state: 'connected', isConnected: true, qrcode: '' })
    const first = sessionAnswer(snapshot, SECRET)
    expect(sessionAnswer(snapshot, SECRET)).toEqual(first)
    const renamed = sessionAnswer({ ...snapshot, name: 'Bia', version: snapshot.version + 1 }, SECRET)
    expect(JSON.parse(renamed.text)).toMatchObject({ name: 'Bia', sessionId: SECRET })
    expect(renamed.etag).not.toBe(first.etag)
  })
})
