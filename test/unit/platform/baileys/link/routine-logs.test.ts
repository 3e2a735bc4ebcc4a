/**
 * The logger handed to Baileys (src/platform/baileys/link/routine-logs.ts): the routine lines of a pairing and a
 * restart reach the session's log at debug or info, with only their safe fields; every other warning and error,
 * an unexpected stream error included, keeps Baileys' level and object; children keep both. And the routine lines
 * are still what this Baileys logs, word for word (an upgrade that rewords one fails here, not in production).
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { ROUTINE, routineAwareLogger } from '../../../../../src/platform/baileys/link/routine-logs.js'

const STREAM_515 = { tag: 'stream:error', attrs: { code: '515' } }

function loggers() {
  const lines: Record<string, unknown>[] = []
  const root = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  let routineMade = 0
  const quiet = root.child({ component: 'baileys' }, { level: 'warn' })
  const logger = routineAwareLogger(quiet, () => {
    routineMade++
    return root.child({ component: 'baileys' })
  })
  return { lines, logger, made: () => routineMade }
}

describe("Baileys' logger", () => {
  it("writes the platform's 515 after a pairing at debug, with its code only", () => {
    const { lines, logger } = loggers()
    logger.error({ reasonNode: undefined, fullErrorNode: STREAM_515 }, 'stream errored out')
    expect(lines).toEqual([expect.objectContaining({ level: 20, msg: 'stream errored out', code: '515' })])
    expect(lines[0]).not.toHaveProperty('fullErrorNode')
  })

  it('keeps an unexpected stream error at error, with what Baileys gave', () => {
    const { lines, logger } = loggers()
    const replaced = { tag: 'stream:error', attrs: {}, content: [{ tag: 'conflict', attrs: { type: 'replaced' } }] }
    logger.error({ fullErrorNode: replaced }, 'stream errored out')
    logger.error({ fullErrorNode: { tag: 'stream:error', attrs: { code: '401' } } }, 'stream errored out')
    expect(lines.map(l => [l.level, l.msg])).toEqual([
      [50, 'stream errored out'],
      [50, 'stream errored out'],
    ])
    expect(lines[0]!.fullErrorNode).toEqual(replaced)
  })

  it("writes Baileys' routine warnings at debug or info, and keeps the others at warn", () => {
    const { lines, logger, made } = loggers()
    logger.warn('keep alive called when WS not open')
    expect(made()).toBe(0) // the session's logger is only made for a routine line
    logger.warn('no name present, ignoring presence update request...')
    logger.warn('Timeout in AwaitingInitialSync, forcing state to Online and flushing buffer')
    logger.warn({ attrs: { error: '479' } }, 'received error in ack')
    expect(lines.map(l => [l.level, l.msg])).toEqual([
      [40, 'keep alive called when WS not open'],
      [20, 'no name present, ignoring presence update request...'],
      [30, 'Timeout in AwaitingInitialSync, forcing state to Online and flushing buffer'],
      [40, 'received error in ack'],
    ])
    expect(made()).toBe(1)
  })

  it('keeps the clamp: what Baileys logs below warn is dropped, whatever the routine logger lets through', () => {
    const { lines, logger } = loggers()
    logger.info({ node: 'a whole stanza' }, 'recv xml')
    logger.debug('debug')
    logger.trace('trace')
    expect(lines).toEqual([])
    expect(logger.level).toBe('warn')
  })

  it('children keep their bindings and the mapping', () => {
    const { lines, logger } = loggers()
    const child = logger.child({ class: 'ns' })
    child.error({ fullErrorNode: STREAM_515 }, 'stream errored out')
    child.error(new Error('boom'), 'error in validating connection')
    expect(lines.map(l => [l.level, l.class, l.msg])).toEqual([
      [20, 'ns', 'stream errored out'],
      [50, 'ns', 'error in validating connection'],
    ])
  })

  it('maps only lines this Baileys really logs, at the level it logs them', () => {
    const lib = path.resolve(import.meta.dirname, '../../../../../node_modules/@whiskeysockets/baileys/lib')
    const sources = readdirSync(lib, { recursive: true })
      .filter(f => String(f).endsWith('.js'))
      .map(f => readFileSync(path.join(lib, String(f)), 'utf8'))
      .join('\n')
    for (const line of ROUTINE) {
      const call = new RegExp(`logger\\.${line.from}\\([^;]*'${line.msg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'`)
      expect(sources, `${line.from} '${line.msg}'`).toMatch(call)
    }
  })
})
