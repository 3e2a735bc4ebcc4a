/**
 * @module http/request-signal
 * An AbortSignal that fires when the client hangs up before its response is complete, so the system can drop the
 * queued or running command (DESIGN: a client that hangs up aborts its task).
 */
import type { Response } from 'express'

export function requestSignal(res: Response): AbortSignal {
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  return controller.signal
}
