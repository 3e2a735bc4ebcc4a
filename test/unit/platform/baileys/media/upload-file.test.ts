import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { UploadFailed, uploadFile, uploadToken } from '../../../../../src/platform/baileys/media/upload-file.js'
import { makeTlsMaterial } from '../../../../../src/sandbox/certs.js'
import { onLoopback, type OnLoopback } from '../../../../support/loopback-server.js'

/** A media host: what each request got, and what the next request is answered with. */
let served: OnLoopback<https.Server>
let host: string
let ca: string
let dir: string
let file: string
const bytes = randomBytes(200_000)
const sha = createHash('sha256').update(bytes).digest()
let received: Array<{ url: string; sha: string; origin?: string }>
let answer: (url: string) => { status: number; body: string; location?: string }

beforeAll(async () => {
  const tls = await makeTlsMaterial()
  ca = tls.caCert
  served = await onLoopback(
    https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const hash = createHash('sha256')
      req.on('data', (c: Buffer) => hash.update(c))
      req.on('end', () => {
        received.push({
          url: req.url ?? '',
          sha: hash.digest('hex'),
          ...(req.headers.origin ? { origin: req.headers.origin } : {}),
        })
        const a = answer(req.url ?? '')
        res.writeHead(a.status, { 'content-type': 'application/json', ...(a.location ? { location: a.location } : {}) })
        res.end(a.body)
      })
    }),
  )
  host = `127.0.0.1:${served.port}`
  dir = await mkdtemp(path.join(os.tmpdir(), 'upload-file-'))
  file = path.join(dir, 'enc')
  await writeFile(file, bytes)
})
afterAll(async () => {
  await served.close()
  await rm(dir, { recursive: true, force: true })
})
beforeEach(() => {
  received = []
  answer = () => ({ status: 200, body: JSON.stringify({ url: 'https://mmg.test/d/1', direct_path: '/d/1' }) })
})

const target = (hosts: string[]) => ({ hosts, auth: 'A+/=', pathPrefix: '/mms/document', ca, timeoutMs: 5000 })

describe('media upload from the pool', () => {
  it('posts the file under its URL-safe hash token with the auth and the web origin, and returns the stored file', async () => {
    const out = await uploadFile(file, sha, target([host]))
    expect(out).toEqual({ url: 'https://mmg.test/d/1', directPath: '/d/1' })
    const token = sha.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    expect(uploadToken(sha)).toBe(token)
    expect(received).toEqual([
      {
        url: `/mms/document/${token}?auth=${encodeURIComponent('A+/=')}&token=${token}`,
        sha: sha.toString('hex'),
        origin: 'https://web.whatsapp.com',
      },
    ])
  })

  it('tries the next host when one refuses, and fails with every host named when all do', async () => {
    answer = url =>
      received.length === 1
        ? { status: 500, body: 'oops' }
        : { status: 200, body: JSON.stringify({ handle: 'H', url }) }
    const out = await uploadFile(file, sha, target([host, host]))
    expect(out.handle).toBe('H')
    expect(received).toHaveLength(2)
    received = []
    answer = () => ({ status: 200, body: JSON.stringify({ nothing: true }) })
    const err = await uploadFile(file, sha, target([host, host])).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UploadFailed)
    expect((err as Error).message).toMatch(/no file in the answer.*no file in the answer/)
  })

  it('an untrusted certificate is a failed upload, not a crash', async () => {
    const err = await uploadFile(file, sha, { ...target([host]), ca: undefined as unknown as string }).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(UploadFailed)
    expect(received).toHaveLength(0)
  })

  it('follows an https redirect, refuses one to plain http', async () => {
    answer = url =>
      url.startsWith('/moved')
        ? { status: 200, body: JSON.stringify({ direct_path: '/d/2' }) }
        : { status: 307, body: '', location: `https://${host}/moved${url}` }
    expect(await uploadFile(file, sha, target([host]))).toEqual({ directPath: '/d/2' })
    expect(received.map(r => r.sha)).toEqual([sha.toString('hex'), sha.toString('hex')])
    answer = () => ({ status: 307, body: '', location: `http://${host}/plain` })
    await expect(uploadFile(file, sha, target([host]))).rejects.toThrow(/refused a redirect off https/)
  })
})
