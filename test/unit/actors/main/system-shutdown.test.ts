/**
 * Shutdown of the session system (src/actors/main/system-shutdown.ts): new work gets the mode's closed error at once,
 * work under way is answered before the parts are released, and work that outlasts the grace period does not hold
 * the release back.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SystemShutdown } from '../../../../src/actors/main/system-shutdown.js'
import { GatewayError } from '../../../../src/protocol/errors.js'

function deferred(): { promise: Promise<string>; resolve: (value: string) => void } {
  let resolve!: (value: string) => void
  const promise = new Promise<string>(r => {
    resolve = r
  })
  return { promise, resolve }
}

/** A shutdown whose release is recorded in `steps`, in order with the tracked work. */
function shutdownWith(graceMs: number, closedError: 'SHUTTING_DOWN' | 'SESSION_MOVING' = 'SHUTTING_DOWN') {
  const steps: string[] = []
  const shutdown = new SystemShutdown({
    closedError,
    graceMs,
    release: async () => {
      steps.push('released')
    },
  })
  return { shutdown, steps }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('system shutdown', () => {
  it('refuses new work with the mode’s closed error once it begins, and begins only once', async () => {
    const { shutdown, steps } = shutdownWith(1000, 'SESSION_MOVING')
    expect(() => shutdown.assertOpen()).not.toThrow()
    expect(shutdown.isClosing()).toBe(false)
    const closing = shutdown.close()
    expect(shutdown.close()).toBe(closing)
    expect(shutdown.isClosing()).toBe(true)
    expect(() => shutdown.assertOpen()).toThrow(new GatewayError('SESSION_MOVING'))
    await closing
    expect(steps).toEqual(['released'])
  })

  it('releases the parts only after the work under way has finished', async () => {
    const { shutdown, steps } = shutdownWith(60_000)
    const work = deferred()
    const answered = shutdown.track(work.promise).then(value => steps.push(value))
    const closing = shutdown.close()
    await Promise.resolve()
    expect(steps).toEqual([])
    work.resolve('answered')
    await Promise.all([closing, answered])
    expect(steps).toEqual(['answered', 'released'])
  })

  it('does not wait past the grace period for work that never ends', async () => {
    vi.useFakeTimers()
    const { shutdown, steps } = shutdownWith(5_000)
    shutdown.track(new Promise(() => {}))
    const closing = shutdown.close()
    await vi.advanceTimersByTimeAsync(4_999)
    expect(steps).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    await closing
    expect(steps).toEqual(['released'])
  })

  it('is not failed by work that fails while it waits', async () => {
    const { shutdown, steps } = shutdownWith(60_000)
    let fail!: (err: Error) => void
    const failed = shutdown.track(new Promise((_, reject) => (fail = reject)))
    const closing = shutdown.close()
    fail(new Error('the platform hung up'))
    await expect(failed).rejects.toThrow('the platform hung up')
    await closing
    expect(steps).toEqual(['released'])
  })
})
