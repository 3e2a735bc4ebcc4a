/**
 * @module http/answers/json-answer
 * JSON answers written as the pieces protocol/json-pieces.ts makes (no whole-body string, no second copy), with the
 * same headers express's `res.json` sets, their waiting bytes counted against the process's budget (answer-budget.ts).
 * `sendJson` builds a small answer at once; `sendLargeJson` writes a read's answer in the budget's turn: the JSON's
 * bytes its session's thread built, or a value built here with the event loop running between its pieces.
 */
import type { Response } from 'express'
import type { AnswerBudget } from './answer-budget.js'
import { type JsonPieces, jsonPieces, jsonPiecesYielding } from '../../protocol/json-pieces.js'

const JSON_TYPE = 'application/json; charset=utf-8'

function write(res: Response, { pieces, bytes }: JsonPieces, budget: AnswerBudget | undefined): void {
  if (!res.hasHeader('content-type')) res.setHeader('content-type', JSON_TYPE)
  res.setHeader('content-length', bytes)
  // one writev for the headers and every piece: the socket takes what the kernel accepts, the rest waits by reference
  res.cork()
  for (const piece of pieces) res.write(piece)
  res.end()
  budget?.hold(res)
}

/**
 * A body already in JSON text (a polled answer rendered once, session-wait/long-poll.ts), with the headers express's
 * `res.json` sets, written with its headers in one piece: none of `res.send`'s content-type parsing and freshness
 * check (the conditional GET answered If-None-Match before).
 */
export function sendJsonText(res: Response, text: string): void {
  res.setHeader('content-type', JSON_TYPE)
  res.setHeader('content-length', Buffer.byteLength(text))
  res.end(text)
}

export function sendJson(res: Response, body: unknown, budget: AnswerBudget | undefined): void {
  write(res, jsonPieces(body), budget)
}

/**
 * A read's answer, whose size is the platform's data: `body` is its JSON's bytes, which the session's thread built
 * (SessionSystem.read), or a value built here. Written once every answer before it is written, so each finds the
 * budget as those left it (503 ANSWERS_BACKLOGGED past it: a burst of reads passes it by one answer at most); not
 * written at all for a client that left meanwhile.
 */
export async function sendLargeJson(res: Response, body: unknown, budget: AnswerBudget): Promise<void> {
  await budget.inTurn(async () => {
    if (res.destroyed) return
    budget.admit()
    write(res, body instanceof Uint8Array ? builtPieces(body) : await jsonPiecesYielding(body), budget)
  })
}

/** Bytes built elsewhere as the one piece of an answer (a view of them, not a copy). */
const builtPieces = (bytes: Uint8Array): JsonPieces => ({
  pieces: [Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
  bytes: bytes.byteLength,
})
