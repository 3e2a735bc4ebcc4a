/**
 * @module cluster/forward-answer
 * The answer side of a forwarded request: the owner's answer goes to the client as it is read, at the client's pace
 * (the pipe's backpressure), so this node never holds more of it than a few buffers. A client that does not read
 * would then hold the connection between the nodes for as long as it likes, and with it a place in the peer's pool
 * (CLUSTER_FORWARD_SOCKETS) that every other tenant's requests through this node need. So an answer is bounded:
 *   - whole: from its first byte it must be read through within CLUSTER_FORWARD_ANSWER_MS;
 *   - stalled: no byte of it may stand still for CLUSTER_FORWARD_STALL_MS (a client that stopped reading, or an
 *     owner that stopped sending).
 * Past either, both connections are closed: the client's (its answer had begun, so a cut is all HTTP allows) and the
 * one to the owner, whose pool place is free again at once. An answer read whole from the owner frees that
 * connection at once, even while the client is still taking its last bytes (those are this node's own socket's).
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import type { Response } from 'express'
import { MOVING_HEADER } from '../http/api-paths.js'
import { PEER_CLIENT_HEADER, PEER_HEADER, PEER_ORIGIN_HEADER } from './peer-auth.js'

/** Headers of one hop only (RFC 9110 §7.6.1), never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
  'content-length',
])

/** What a hop passes on of `headers`: neither hop-by-hop headers nor the nodes' own (a client cannot set those). */
export function passable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue
    if (name === PEER_HEADER || name === PEER_CLIENT_HEADER || name === PEER_ORIGIN_HEADER) continue
    out[name] = value
  }
  return out
}

export interface AnswerBounds {
  /** CLUSTER_FORWARD_ANSWER_MS: the longest an answer may take, from its first byte, to be read whole. */
  answerMs: number
  /** CLUSTER_FORWARD_STALL_MS: the longest no byte of it may move. */
  stallMs: number
}

/** 'ok': read whole from the owner. 'aborted': either side went away. 'cut': past a bound, both closed here. */
export type RelayEnd = 'ok' | 'aborted' | 'cut'

/** Sends the owner's `answer` to `res` within `bounds`; `done` is called once, as soon as the owner's side ends. */
export function relayAnswer(
  answer: IncomingMessage,
  res: Response,
  bounds: AnswerBounds,
  done: (end: RelayEnd) => void,
): void {
  try {
    res.status(answer.statusCode ?? 502)
    for (const [name, value] of Object.entries(passable(answer.headers))) {
      if (value !== undefined && name !== MOVING_HEADER) res.setHeader(name, value)
    }
  } catch {
    answer.destroy()
    res.destroy()
    done('aborted')
    return
  }
  let ended = false
  const end = (how: RelayEnd) => {
    if (ended) return
    ended = true
    clearTimeout(whole)
    clearTimeout(stall)
    done(how)
  }
  const cut = () => {
    end('cut')
    answer.destroy()
    res.destroy()
  }
  const whole = setTimeout(cut, bounds.answerMs)
  const stall = setTimeout(cut, bounds.stallMs)
  // a byte read from the owner is a byte the client made room for (the pipe pauses the owner's side otherwise)
  answer.on('data', () => stall.refresh())
  answer.on('end', () => end('ok'))
  answer.on('error', () => {
    end('aborted')
    res.destroy()
  })
  answer.on('close', () => {
    if (ended) return
    end('aborted')
    res.destroy()
  })
  answer.pipe(res)
}
