/**
 * libsignal's console output routed to the logger (src/platform/baileys/patches/libsignal-console.ts).
 */
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { routeLibsignalConsole } from '../../../../../src/platform/baileys/patches/libsignal-console.js'

describe('routeLibsignalConsole', () => {
  it('keeps libsignal session records (with private keys) out of the console, and lets other lines through', () => {
    const saved = { log: console.log, info: console.info, warn: console.warn }
    const printed: unknown[][] = []
    console.info = (...args: unknown[]) => {
      printed.push(args)
    }
    console.warn = (...args: unknown[]) => {
      printed.push(args)
    }
    const logged: string[] = []
    const logger = pino(
      { level: 'debug' },
      {
        write: (line: string) => {
          logged.push(line)
        },
      },
    )
    try {
      routeLibsignalConsole(logger)
      console.info('Closing session:', { privKey: 'SECRET-KEY' })
      console.warn('Session already closed', { privKey: 'SECRET-KEY' })
      console.warn('something else')
    } finally {
      Object.assign(console, saved)
    }
    expect(printed).toEqual([['something else']])
    expect(logged.join('')).toContain('Closing session:')
    expect(logged.join('')).not.toContain('SECRET-KEY')
  })
})
