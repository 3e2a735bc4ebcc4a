/**
 * @module test/support/property/raw-http
 * A raw HTTP/1.1 client over a TCP socket, so a property test can send what fetch and supertest refuse or tidy up:
 * duplicate headers, UTF-8 bytes in header values, any content type, any bytes as a body. Plus the one check every
 * response must pass: an allowed status, JSON, and for errors exactly `{ statusCode, message }`, no stack trace.
 */
import net from 'node:net'
import { expect } from 'vitest'

export interface RawRequest {
  method: string
  path: string
  /** Name/value pairs in order; a name may repeat. */
  headers: [string, string][]
  body?: Buffer
}

export interface RawResponse {
  status: number
  headers: Record<string, string>
  text: string
}

/** Sends one request on a fresh connection; rejects when no full response arrives within `timeoutMs` (a hang). */
export function rawRequest(port: number, req: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const head = [
    `${req.method} ${req.path} HTTP/1.1`,
    'host: 127.0.0.1',
    'connection: close',
    ...req.headers.map(([k, v]) => `${k}: ${v}`),
    ...(req.body ? [`content-length: ${req.body.length}`] : []),
    '',
    '',
  ].join('\r\n')
  return exchange(
    port,
    Buffer.concat([Buffer.from(head, 'utf8'), req.body ?? Buffer.alloc(0)]),
    `${req.method} ${req.path}`,
    timeoutMs,
  )
}

/** Writes `bytes` on a fresh connection and parses what comes back before the server closes it. */
export function exchange(port: number, bytes: Buffer, what: string, timeoutMs = 15_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no response within ${timeoutMs} ms: ${what}`))
    }, timeoutMs)
    socket.on('data', c => chunks.push(c))
    socket.on('error', err => {
      clearTimeout(timer)
      reject(err)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      try {
        resolve(parseResponse(Buffer.concat(chunks)))
      } catch (err) {
        reject(err as Error)
      }
    })
    socket.write(bytes)
  })
}

function parseResponse(raw: Buffer): RawResponse {
  // an interim answer (100 Continue to `expect: 100-continue`) comes before the response itself
  while (/^HTTP\/1\.1 1\d\d /.test(raw.subarray(0, 13).toString('latin1'))) {
    const end = raw.indexOf('\r\n\r\n')
    if (end < 0) break
    raw = raw.subarray(end + 4)
  }
  const split = raw.indexOf('\r\n\r\n')
  if (split < 0) throw new Error(`incomplete response: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`)
  const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1])
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const i = line.indexOf(':')
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
  }
  let body = raw.subarray(split + 4)
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body)
  return { status, headers, text: body.toString('utf8') }
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = []
  let at = 0
  for (;;) {
    const eol = body.indexOf('\r\n', at)
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16)
    if (!size) return Buffer.concat(out)
    out.push(body.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
}

/** The contract of every response: status allowed for the endpoint, JSON body, spec error shape for errors. */
export function expectWellFormed(res: RawResponse, allowed: readonly number[], what: string): unknown {
  expect(allowed, `${what} answered ${res.status}: ${res.text.slice(0, 300)}`).toContain(res.status)
  expect(res.headers['content-type'], what).toMatch(/^application\/json/)
  const body = JSON.parse(res.text) as unknown
  expect(res.text, what).not.toMatch(/\bat .+:\d+:\d+|stack|node_modules/i)
  if (res.status >= 400) {
    expect(Object.keys(body as object).sort(), what).toEqual(['message', 'statusCode'])
    const { statusCode, message } = body as { statusCode: unknown; message: unknown }
    expect(statusCode, what).toBe(res.status)
    expect(typeof message === 'string' && message.length > 0, `${what}: message ${JSON.stringify(message)}`).toBe(true)
  } else {
    expect(typeof body === 'object' && body !== null && !Array.isArray(body), what).toBe(true)
  }
  return body
}
