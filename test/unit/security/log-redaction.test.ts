/**
 * @module test/unit/security/log-redaction
 * The redaction safety net of every gateway logger: secret fields, at the top or one object down, never reach the
 * output; URLs keep origin and path but lose their query; error messages and ids stay readable.
 */
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { logRedaction } from '../../../src/security/log-redaction.js'

function capture(): { logger: pino.Logger; text: () => string } {
  const lines: string[] = []
  const logger = pino({ level: 'trace', redact: logRedaction }, { write: (line: string) => void lines.push(line) })
  return { logger, text: () => lines.join('') }
}

describe('log redaction', () => {
  it('hides secrets and message content, keeps what an operator needs', () => {
    const { logger, text } = capture()
    logger.debug(
      {
        session: 'public-id-1',
        sessionId: 'S3CRET-session',
        qr: '2@QRSTRING,abc',
        text: 'hello MARKER-1',
        creds: { noiseKey: { private: 'PRIVATE-KEY-B64' } },
        msg: { caption: 'MARKER-2', url: 'https://media.example/a.jpg?token=URLTOKEN#frag' },
        headers: { 'session-id': 'S3CRET-header', authorization: 'Bearer TOKEN-1' },
        err: new Error('download failed'),
      },
      'event',
    )
    logger.trace({ message: { conversation: 'MARKER-3' }, url: 'not a url TOKEN-2' }, 'other')
    logger.info(
      { proxy: 'socks5://alice:PROXY-PW@proxy.test:1080', link: { proxyUrl: 'http://b:PROXY-PW2@p.test' } },
      'p',
    )
    // a proxy service's API token given as the username alone is the credential
    logger.info({ proxy: 'socks5://PROXY-TOKEN-ALONE@proxy.test:1080' }, 'lone')
    const out = text()
    for (const secret of [
      'S3CRET',
      'QRSTRING',
      'MARKER-',
      'PRIVATE-KEY',
      'URLTOKEN',
      'frag',
      'TOKEN-1',
      'TOKEN-2',
      'PROXY-PW',
      'PROXY-TOKEN-ALONE',
    ]) {
      expect(out, secret).not.toContain(secret)
    }
    expect(out).toContain('public-id-1')
    expect(out).toContain('https://media.example/a.jpg')
    expect(out).toContain('download failed')
    expect(out).toContain('socks5://alice:***@proxy.test:1080') // a proxy keeps all but its password
    expect(out).toContain('socks5://***@proxy.test:1080')
    expect(out).toContain('[redacted]')
  })
})
