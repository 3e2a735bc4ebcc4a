/**
 * @module test/support/expect-error
 * Every error response must be JSON with exactly `{ statusCode, message }`, the status repeated in the body,
 * and no stack trace anywhere.
 */
import { expect } from 'vitest'
import type { Response } from 'supertest'

export function expectError(res: Response, status: number, message: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { statusCode: status, message } })
  expect(Object.keys(res.body as object).sort()).toEqual(['message', 'statusCode'])
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  expect(res.text).not.toMatch(/\bat .+:\d+:\d+|stack/i)
}
