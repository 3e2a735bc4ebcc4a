/**
 * @module test/unit/platform/baileys/link/write-gate
 * Cluster mode's write gate under a Baileys socket: frames pass while the node may hold the session's lease; once
 * it may not (a node waking from a pause past its lease), the next frame is dropped, its writer gets an error, and
 * the socket is terminated, so nothing more reaches a connection the platform gave to the new owner.
 */
import { describe, expect, it } from 'vitest'
import pino from 'pino'
import type { WASocket } from '@whiskeysockets/baileys'
import { gateWrites } from '../../../../../src/platform/baileys/link/write-gate.js'

function fakeSocket() {
  const sent: unknown[] = []
  const raw = {
    terminated: 0,
    send(data: unknown, cb?: (err?: Error) => void) {
      sent.push(data)
      cb?.()
    },
    terminate() {
      this.terminated++
    },
  }
  return { sock: { ws: { socket: raw } } as unknown as WASocket, raw, sent }
}

describe('write gate', () => {
  it('passes frames while the lease is held, then drops the next one and terminates the socket', () => {
    const { sock, raw, sent } = fakeSocket()
    let held = true
    gateWrites(sock, () => held, pino({ level: 'silent' }))
    const errors: (Error | undefined)[] = []
    raw.send('frame-1', err => errors.push(err))
    held = false
    raw.send('frame-2', err => errors.push(err))
    expect(sent).toEqual(['frame-1'])
    expect(errors[0]).toBeUndefined()
    expect(errors[1]?.message).toMatch(/lease may have moved/)
    expect(raw.terminated).toBe(1)
  })

  it('leaves a socket that has none yet alone', () => {
    expect(() => gateWrites({ ws: { socket: null } } as unknown as WASocket, () => false, pino())).not.toThrow()
  })
})
