/**
 * The ETag of a waiting answer: a strong validator of the exact body (the same body, the same ETag, in any process;
 * any other body, another one), and If-None-Match read as RFC 9110 says (`*`, lists, weak comparison).
 */
import { describe, expect, it } from 'vitest'
import { etagOf, noneMatch } from '../../../../src/http/session-wait/etag.js'

const BODY = '{"id":"a","qrcode":"iVBORw0KGgo="}'

describe('etagOf', () => {
  it('is a quoted strong tag made from the body alone', () => {
    const etag = etagOf(BODY)
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
    expect(etagOf(BODY)).toBe(etag)
    // the body with one character changed, or a field added, is another answer
    expect(etagOf(BODY.replace('a', 'b'))).not.toBe(etag)
    expect(etagOf(`${BODY} `)).not.toBe(etag)
  })
})

describe('noneMatch (If-None-Match)', () => {
  const etag = etagOf(BODY)
  it.each([
    ['the tag itself', etag, true],
    ['the tag marked weak', `W/${etag}`, true],
    ['the tag in a list', `"older", ${etag}`, true],
    ['a list without spaces', `"older",${etag}`, true],
    ['*', '*', true],
    ['* with spaces', ' * ', true],
    ['another tag', '"older"', false],
    ['the tag unquoted', etag.slice(1, -1), false],
    ['the tag with a part missing', `${etag.slice(0, -2)}"`, false],
    ['an empty header', '', false],
    ['no header', undefined, false],
  ])('%s: %s', (_name, header, matches) => {
    expect(noneMatch(header, etag)).toBe(matches)
  })
})
