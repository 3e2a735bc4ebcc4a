/**
 * @module cluster/request-body
 * Reads a request's body whole before it crosses to another node, bounded by BODY_LIMIT_BYTES (bodies are JSON;
 * media come by URL). A client that sends its body slowly or never finishes it waits on its own connection to this
 * node (the server's request time-out ends it), and never holds a connection between nodes.
 */
import type { IncomingMessage } from 'node:http'
import { GatewayError } from '../protocol/errors.js'

/** The client went away before its body was whole: nobody to answer. */
export class BodyAborted extends Error {}

const EMPTY = Buffer.alloc(0)

export function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  // no Content-Length and no Transfer-Encoding: the request has no body (RFC 9112 §6.3), nothing to wait for
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
    return Promise.resolve(EMPTY)
  const declared = Number(req.headers['content-length'] ?? '0')
  if (Number.isFinite(declared) && declared > limitBytes) return Promise.reject(new GatewayError('BODY_TOO_LARGE'))
  if (req.readableEnded || declared === 0) return Promise.resolve(EMPTY)
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (err?: Error) => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('aborted', onAborted)
      if (err) reject(err)
      else resolve(Buffer.concat(chunks, size))
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limitBytes) {
        req.pause()
        done(new GatewayError('BODY_TOO_LARGE'))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => done()
    const onError = () => done(new BodyAborted())
    const onAborted = () => done(new BodyAborted())
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('aborted', onAborted)
  })
}
