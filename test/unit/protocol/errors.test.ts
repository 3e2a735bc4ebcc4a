/**
 * GatewayError as data: one entry of the error table gives its status, message and Retry-After, and its typed
 * details survive the thread boundary (structuredClone is what postMessage does to them).
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { ErrorTemplate } from '../../../src/protocol/error-table.js'
import {
  type ErrorCode,
  ERRORS,
  fromWire,
  GatewayError,
  isWireError,
  toWireError,
  validationFailed,
} from '../../../src/protocol/errors.js'

const acrossThreads = (error: GatewayError): GatewayError => fromWire(structuredClone(error.toWire()))

describe('GatewayError', () => {
  it('takes status, message and Retry-After from its entry, the values from its details', () => {
    const rate = new GatewayError('SEND_RATE', { retryAfterSeconds: 3 })
    expect([rate.status, rate.message, rate.retryAfterSeconds]).toEqual([
      429,
      'too many messages for this session, retry in 3 s',
      3,
    ])
    const moving = new GatewayError('SESSION_MOVING')
    expect([moving.status, moving.retryAfterSeconds]).toEqual([503, 1])
    expect(new GatewayError('GROUP_NOT_FOUND').retryAfterSeconds).toBeUndefined()
    const creation = new GatewayError('TOO_MANY_REQUESTS', { retryAfterSeconds: 40 })
    expect([creation.message, creation.retryAfterSeconds]).toEqual(['too many requests', 40])
  })

  it("carries the platform's code as a field", () => {
    const rejected = new GatewayError('PLATFORM_REJECTED', { platformCode: '463' })
    expect([rejected.message, rejected.platformCode]).toEqual(['the platform rejected the message (error 463)', '463'])
    expect(new GatewayError('PLATFORM_TIMEOUT').platformCode).toBeUndefined()
  })

  it('keeps its cause out of the message', () => {
    const err = new GatewayError('INTERNAL', { cause: new Error('a new session id collided') })
    expect(err.message).toBe('internal server error')
    expect((err.cause as Error).message).toBe('a new session id collided')
  })

  it('crosses a thread as data: same code, details, message, Retry-After, platform code; its cause as text', () => {
    // what postMessage does to the class itself: the fields are gone (structured clone keeps no subclass)
    const cloned = structuredClone(new GatewayError('UNPAIRED_CAP', { max: 10, retryAfterSeconds: 60 }))
    expect((cloned as { code?: unknown }).code).toBeUndefined()

    const cap = acrossThreads(new GatewayError('UNPAIRED_CAP', { max: 10, retryAfterSeconds: 60 }))
    expect(cap).toBeInstanceOf(GatewayError)
    expect([cap.code, cap.status, cap.retryAfterSeconds, cap.message]).toEqual([
      'UNPAIRED_CAP',
      429,
      60,
      'too many unpaired sessions for this client (10); scan or delete one, or retry in 60 s',
    ])
    const refused = acrossThreads(new GatewayError('CHANNEL_LIST_REFUSED', { queryId: '42', platformCode: 404 }))
    expect([refused.platformCode, refused.message]).toEqual([
      '404',
      'the platform refused the channel list query 42 (error 404); the id may be outdated, set CHANNEL_LIST_QUERY_ID',
    ])
    const internal = acrossThreads(new GatewayError('INTERNAL', { cause: new TypeError('x is undefined') }))
    expect([internal.message, internal.cause]).toEqual(['internal server error', 'TypeError: x is undefined'])
  })

  it('joins validation lines into one message', () => {
    const err = validationFailed(['phone must be a valid phone number', 'type should not be empty'])
    expect([err.status, err.message]).toEqual([400, 'phone must be a valid phone number\ntype should not be empty'])
  })

  it('makes anything else thrown an internal error without details', () => {
    expect(toWireError(new Error('/data/secret path'))).toEqual({ code: 'INTERNAL', details: {} })
    expect(toWireError('a string')).toEqual({ code: 'INTERNAL', details: {} })
    expect(isWireError({ code: 'NO_SUCH_CODE', details: {} })).toBe(false)
    expect(isWireError({ code: 'toString', details: {} })).toBe(false)
    expect(isWireError({ code: 'GROUP_NOT_FOUND' })).toBe(false)
  })
})

describe('the error table', () => {
  it('writes each message as one literal, so its details are typed', () => {
    // A message joined with `+` types as `string`: its `<name>`s would not be required of the caller.
    type Joined = { [C in ErrorCode]: string extends ErrorTemplate<C> ? C : never }[ErrorCode]
    expectTypeOf<Joined>().toEqualTypeOf<never>()
  })

  it('gives a Retry-After to every 503: a fixed one, or the wait its message names', () => {
    const without = Object.entries(ERRORS).filter(
      ([, entry]) =>
        entry.status === 503 && !('retryAfterSeconds' in entry) && !entry.message.includes('<retryAfterSeconds>'),
    )
    expect(without).toEqual([])
  })
})
