/**
 * The end-to-end suite's response validator (test/support/response-validator.ts) must catch a response that drifted
 * from the document, else "validated against the document" would mean nothing. Also its openapi-fetch middleware:
 * a mismatching answer makes the client call fail.
 */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGatewayClient, withSession } from '../../../src/client/index.js'
import {
  documentValidator,
  ResponseMismatch,
  validatingMiddleware,
  type RecordedResponse,
} from '../../support/response-validator.js'
import { onLoopback, type OnLoopback } from '../../support/loopback-server.js'

const validator = documentValidator()
const JSON_TYPE = 'application/json; charset=utf-8'
const SESSION = {
  id: 'a',
  generatedId: '',
  name: '',
  sessionId: 's',
  isConnected: false,
  qrcode: 'iVBOR',
  picture: '',
}
const check = (r: Partial<RecordedResponse>) =>
  validator.check({ method: 'GET', path: '/session', status: 200, body: SESSION, contentType: JSON_TYPE, ...r })

describe('the response validator', () => {
  it('accepts responses the document describes', () => {
    expect(check({})).toEqual([])
    expect(check({ status: 404, body: { statusCode: 404, message: 'session not found' } })).toEqual([])
    expect(
      check({
        method: 'GET',
        path: '/group/120363000000000001@g.us',
        body: {
          id: '120363000000000001@g.us',
          name: 'Team',
          description: '',
          picture: '',
          created: null,
        },
      }),
    ).toEqual([])
    expect(check({ path: '/group/member', body: { docs: [{ id: '1@lid', name: '', phone: '' }] } })).toEqual([])
    expect(
      check({ path: '/webhook', method: 'POST', status: 404, body: { statusCode: 404, message: 'not found' } }),
    ).toEqual([])
  })

  it('rejects a body missing a required field', () => {
    const { isConnected: _, ...partial } = SESSION
    expect(check({ body: partial }).join('\n')).toMatch(/must have required property 'isConnected'/)
  })

  it('rejects a field of the wrong type and a field the document does not have', () => {
    expect(check({ body: { ...SESSION, isConnected: 'yes' } }).join('\n')).toMatch(/body\/isConnected must be boolean/)
    expect(check({ body: { ...SESSION, token: 'x' } }).join('\n')).toMatch(/must NOT have additional properties/)
  })

  it('tells /group/member from /group/{groupId}', () => {
    const group = { id: '120363000000000001@g.us', name: 'Team', description: '', picture: '', created: null }
    expect(check({ path: '/group/member', body: group })).not.toEqual([])
  })

  it('rejects an undocumented status, an error body of another shape, a non-JSON body and an unknown route', () => {
    expect(check({ status: 418, body: { statusCode: 418, message: 'teapot' } })).toEqual([
      'GET /session → 418: status 418 is not documented for GET /session',
    ])
    expect(check({ status: 404, body: { error: 'session not found' } })).not.toEqual([])
    expect(check({ contentType: 'text/html', body: undefined })).not.toEqual([])
    expect(check({ path: '/sessions', status: 200 })).toEqual([
      'GET /sessions → 200: GET /sessions is not in the document',
    ])
  })
})

describe('the validating middleware', () => {
  let url = ''
  let answer: unknown = SESSION
  let served: OnLoopback<Server>
  beforeAll(async () => {
    served = await onLoopback(
      createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
      ),
    )
    url = served.url
  })
  afterAll(() => served.close())

  it('records a valid answer and fails the call on an invalid one', async () => {
    const record: RecordedResponse[] = []
    const client = createGatewayClient(url)
    client.use(validatingMiddleware(validator, record))
    const ok = await client.GET('/session', withSession({ id: 'a', sessionId: 's' }))
    expect(ok.data).toEqual(SESSION)
    expect(record).toMatchObject([{ method: 'GET', path: '/session', status: 200, body: SESSION }])

    answer = { id: 'a', sessionId: 's' }
    await expect(client.GET('/session', withSession({ id: 'a', sessionId: 's' }))).rejects.toBeInstanceOf(
      ResponseMismatch,
    )
  })
})
