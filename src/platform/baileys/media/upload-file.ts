/**
 * @module platform/baileys/media/upload-file
 * Uploads a file to the platform's media hosts the way its web client does: `POST https://<host><path>/<token>
 * ?auth=<auth>&token=<token>` with the file as the body, where the token is the URL-safe base64 of the file's
 * SHA-256 (of the ciphertext for end-to-end media). The answer is JSON naming the stored file. Hosts are tried in
 * order; a redirect is followed (https only, at most 5). Behind the session's proxy the upload goes through it.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type http from 'node:http'
import https from 'node:https'
import tls from 'node:tls'
import { pipeline } from 'node:stream/promises'
import type { UploadAnswer, UploadTarget } from './upload-job.js'
import { tunnelAgent } from '../../../proxy/proxy-agent.js'
import { proxyConnection } from '../../../proxy/proxy-connection.js'

const MAX_REDIRECTS = 5
const MAX_ANSWER_BYTES = 64 * 1024

/** The platform's file token: base64 with `-` and `_`, no padding. */
export const uploadToken = (sha256: Uint8Array): string =>
  encodeURIComponent(Buffer.from(sha256).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))

export class UploadFailed extends Error {}

/** One keep-alive agent per set of extra roots, for the life of the thread. */
const agents = new Map<string, https.Agent>()
function agentFor(ca: string | undefined): https.Agent {
  const key = ca ?? ''
  let agent = agents.get(key)
  if (!agent) {
    agent = new https.Agent({ keepAlive: true, ...(ca ? { ca: [...tls.rootCertificates, ca] } : {}) })
    agents.set(key, agent)
  }
  return agent
}

/** The session's proxy for this one upload (its own agent, ended with it), or the thread's shared agent. */
function uploadAgent(target: UploadTarget): { agent: http.Agent; done(): void } {
  if (!target.proxy) return { agent: agentFor(target.ca), done: () => undefined }
  const via = proxyConnection(target.proxy.route, target.proxy.settings, target.ca)
  const agent = tunnelAgent(via.url, via.options)
  return { agent, done: () => agent.destroy() }
}

/** Uploads `filePath` under `sha256`'s token; throws UploadFailed when no host stored it. */
export async function uploadFile(filePath: string, sha256: Uint8Array, target: UploadTarget): Promise<UploadAnswer> {
  const token = uploadToken(sha256)
  const { size } = await stat(filePath)
  const errors: string[] = []
  let through: ReturnType<typeof uploadAgent>
  try {
    through = uploadAgent(target)
  } catch (err) {
    throw new UploadFailed((err as Error).message) // a refused proxy: nothing was sent
  }
  try {
    for (const host of target.hosts) {
      const url = `https://${host}${target.pathPrefix}/${token}?auth=${encodeURIComponent(target.auth)}&token=${token}`
      try {
        const answer = await post(new URL(url), filePath, size, target, through.agent)
        if (answer.url || answer.directPath || answer.handle) return answer
        errors.push(`${host}: no file in the answer`)
      } catch (err) {
        errors.push(`${host}: ${(err as Error).message}`)
      }
    }
  } finally {
    through.done()
  }
  throw new UploadFailed(`media upload failed on every host (${errors.join('; ') || 'no hosts'})`)
}

async function post(
  url: URL,
  filePath: string,
  size: number,
  target: UploadTarget,
  agent: http.Agent,
  redirects = 0,
): Promise<UploadAnswer> {
  const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: 'POST',
        agent,
        timeout: target.timeoutMs,
        headers: {
          Origin: 'https://web.whatsapp.com',
          'Content-Type': 'application/octet-stream',
          'Content-Length': size,
        },
      },
      resolve,
    )
    req.once('timeout', () => req.destroy(new Error(`no answer within ${target.timeoutMs} ms`)))
    req.once('error', reject)
    pipeline(createReadStream(filePath, { highWaterMark: 1 << 20 }), req).catch(reject)
  })
  const location = res.headers.location
  if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
    res.resume()
    const next = new URL(location, url)
    if (next.protocol !== 'https:') throw new Error('refused a redirect off https')
    if (redirects >= MAX_REDIRECTS) throw new Error('too many redirects')
    return post(next, filePath, size, target, agent, redirects + 1)
  }
  let body = ''
  for await (const chunk of res as AsyncIterable<Buffer>) {
    body += chunk.toString('utf8')
    if (body.length > MAX_ANSWER_BYTES) {
      res.destroy()
      throw new Error('answer too large')
    }
  }
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`)
  let json: { url?: unknown; direct_path?: unknown; handle?: unknown }
  try {
    json = JSON.parse(body) as typeof json
  } catch {
    throw new Error('answer is not JSON')
  }
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined)
  const answer: UploadAnswer = {}
  if (str(json.url)) answer.url = str(json.url)!
  if (str(json.direct_path)) answer.directPath = str(json.direct_path)!
  if (str(json.handle)) answer.handle = str(json.handle)!
  return answer
}
