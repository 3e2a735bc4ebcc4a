/**
 * @module test/unit/actors/worker/task-aborts
 * A client that hangs up cancels its command whether the abort reaches the thread before the task, while it runs,
 * or after it ended; an abort that came too late is not kept (it would be kept for as long as the thread lives).
 */
import { describe, expect, it } from 'vitest'
import { TaskAborts } from '../../../../src/actors/worker/task-aborts.js'

describe('task aborts', () => {
  it('aborts a running task at once', () => {
    const aborts = new TaskAborts()
    const signal = aborts.begin(1)
    aborts.abort(1)
    expect(signal.aborted).toBe(true)
  })

  it('keeps an abort that came before its task until the task arrives, and only that task', () => {
    const aborts = new TaskAborts()
    aborts.begin(1)
    aborts.abort(3)
    expect(aborts.early).toBe(1)
    expect(aborts.begin(2).aborted).toBe(false)
    expect(aborts.begin(3).aborted).toBe(true)
    expect(aborts.early).toBe(0)
  })

  it('drops an abort of a task that already ended', () => {
    const aborts = new TaskAborts()
    aborts.begin(1)
    aborts.end(1)
    aborts.begin(2)
    aborts.abort(1)
    expect(aborts.early).toBe(0)
  })
})
