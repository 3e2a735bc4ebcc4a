/**
 * The session mailbox (src/actors/session/mailbox.ts): jobs one at a time in posting order, a failure does not stop
 * the queue.
 */
import { describe, expect, it } from 'vitest'
import { Mailbox } from '../../../../src/actors/session/mailbox.js'

describe('Mailbox', () => {
  it('runs jobs one at a time in posting order, and a failure does not stop the queue', async () => {
    const box = new Mailbox()
    const log: string[] = []
    const job =
      (name: string, ms: number, fail = false) =>
      () =>
        new Promise<string>((resolve, reject) => {
          log.push(`start ${name}`)
          setTimeout(() => {
            log.push(`end ${name}`)
            if (fail) reject(new Error(name))
            else resolve(name)
          }, ms)
        })
    const a = box.post(job('a', 30))
    const b = box.post(job('b', 1, true))
    const c = box.post(job('c', 1))
    expect(box.size).toBe(3)
    await expect(a).resolves.toBe('a')
    await expect(b).rejects.toThrow('b')
    await expect(c).resolves.toBe('c')
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
    expect(box.size).toBe(0)
  })
})
