/**
 * @module http/answers/json-answer
 * `sendJson`: a JSON answer written as the pieces json-pieces.ts makes (no whole-body string, no second copy), with
 * the same headers express's `res.json` sets, its waiting bytes counted against the process's budget
 * (answer-budget.ts).
 */
import type { Response } from 'express'
import type { AnswerBudget } from './answer-budget.js'
import { jsonPieces } from './json-pieces.js'

export function sendJson(res: Response, body: unknown, budget: AnswerBudget | undefined): void {
  const { pieces, bytes } = jsonPieces(body)
  if (!res.hasHeader('content-type')) res.setHeader('content-type', 'application/json; charset=utf-8')
  res.setHeader('content-length', bytes)
  // one writev for the headers and every piece: the socket takes what the kernel accepts, the rest waits by reference
  res.cork()
  for (const piece of pieces) res.write(piece)
  res.end()
  budget?.hold(res)
}
