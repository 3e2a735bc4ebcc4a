/**
 * The logger Baileys gets (src/platform/baileys/link/deferred-logger.ts): a child made for every message costs
 * nothing until a line is written through it, and a line that is written looks exactly as with pino's own child
 * (the same bindings, the same redaction, the same level filter).
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { describe, expect, it, vi } from 'vitest'
import { DeferredLogger } from '../../../../../src/platform/baileys/link/deferred-logger.js'
import { logRedaction } from '../../../../../src/security/log-redaction.js'

function capture(level: string) {
  const lines: Record<string, unknown>[] = []
  const out = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>)
      done()
    },
  })
  const root = pino({ level, redact: logRedaction }, out)
  return { root, lines }
}

describe('deferred child loggers for Baileys', () => {
  it("makes no pino child for a line below the level, and writes pino's own line at the level", async () => {
    const { root, lines } = capture('warn')
    const child = vi.spyOn(root, 'child')
    const baileys = DeferredLogger.of(root)
    const perMessage = baileys.child({ msgId: 'M1' })
    perMessage.debug({ step: 'encode' }, 'not written')
    perMessage.info('not written either')
    expect(child).not.toHaveBeenCalled()
    expect(perMessage.isLevelEnabled('debug')).toBe(false)
    expect(perMessage.isLevelEnabled('error')).toBe(true)
    perMessage.child({ class: 'inner' }).warn({ jid: 'x' }, 'written')
    perMessage.error('also written')
    expect(child).toHaveBeenCalledTimes(2) // once for msgId, once for class: then reused
    await new Promise(r => setImmediate(r))
    expect(lines.map(l => [l.msg, l.msgId, l.class, l.level])).toEqual([
      ['written', 'M1', 'inner', 40],
      ['also written', 'M1', undefined, 50],
    ])
  })

  it("keeps a child's own level and the gateway's redaction", async () => {
    const { root, lines } = capture('info')
    const quiet = DeferredLogger.of(root).child({ component: 'baileys' }, { level: 'error' })
    expect(quiet.level).toBe('error')
    quiet.warn('below the child level')
    quiet.error({ headers: { 'session-id': 'very secret' } }, 'redacted')
    await new Promise(r => setImmediate(r))
    expect(lines).toHaveLength(1)
    expect(JSON.stringify(lines[0])).not.toContain('very secret')
    expect(lines[0]!.component).toBe('baileys')
    // a level set later holds for this logger, also once pino's child is made
    quiet.level = 'warn'
    quiet.warn('at the new level')
    await new Promise(r => setImmediate(r))
    expect(lines.map(l => l.msg)).toEqual(['redacted', 'at the new level'])
    const silent = DeferredLogger.of(pino({ level: 'silent' }))
    silent.fatal('nothing')
    expect(silent.isLevelEnabled('fatal')).toBe(false)
  })
})
