import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { proto, type BinaryNode } from '@whiskeysockets/baileys'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import {
  explainChannelRejection,
  sendChannelMedia,
  type ChannelMediaSocket,
} from '../../../../../src/platform/baileys/media/channel-post.js'
import runUploadJob from '../../../../../src/platform/baileys/media/run-upload.js'
import { onLoopback, type OnLoopback } from '../../../../support/loopback-server.js'

let served: OnLoopback<https.Server>
let ca: string
let port: number
let dir: string
let file: string
const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256))
const uploads: Array<{ url: string; body: Buffer; origin: string | undefined }> = []

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nl-media-'))
  file = path.join(dir, 'img.jpg')
  await writeFile(file, bytes)
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  served = await onLoopback(
    https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', c => chunks.push(c))
      req.on('end', () => {
        uploads.push({ url: req.url ?? '', body: Buffer.concat(chunks), origin: req.headers.origin })
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ url: 'https://media.test/nl/1', direct_path: '/nl/1', handle: 'HANDLE-1' }))
      })
    }),
  )
  port = served.port
  ca = pems.cert
})
afterAll(async () => {
  await served.close()
  await rm(dir, { recursive: true, force: true })
})

const socket = (answer: (node: BinaryNode) => BinaryNode | undefined, sent: BinaryNode[]): ChannelMediaSocket => ({
  query: async node => {
    sent.push(node)
    return answer(node)
  },
  // what the link's pool upload does for channel media (media/pool-upload.ts), run in this thread
  uploadRaw: async (kind, filePath) => {
    const outcome = await runUploadJob({
      mode: 'raw',
      filePath,
      target: {
        hosts: [`127.0.0.1:${port}`],
        auth: 'AUTH/+=',
        pathPrefix: `/newsletter/newsletter-${kind}`,
        ca,
        timeoutMs: 5000,
      },
    })
    if (!outcome.ok) throw new Error(outcome.reason)
    return outcome.result
  },
})

describe('channel media (upload + media_id)', () => {
  it('uploads raw bytes to the newsletter path and posts the handle with an unencrypted proto', async () => {
    const sent: BinaryNode[] = []
    const sock = socket(node => ({ tag: 'ack', attrs: { class: 'message', id: node.attrs.id!, server_id: '9' } }), sent)
    await sendChannelMedia(
      sock,
      '1@newsletter',
      'MSG1',
      {
        kind: 'image',
        filePath: file,
        mimetype: 'image/jpeg',
        caption: 'cap',
        jpegThumbnail: Buffer.from('thumb').toString('base64'),
      },
      { ackTimeoutMs: 5000 },
    )
    const sha = createHash('sha256').update(bytes).digest()
    const token = sha.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    expect(uploads).toHaveLength(1)
    expect(uploads[0]?.url).toBe(
      `/newsletter/newsletter-image/${token}?auth=${encodeURIComponent('AUTH/+=')}&token=${token}`,
    )
    expect(uploads[0]?.body.equals(bytes)).toBe(true)
    expect(uploads[0]?.origin).toBe('https://web.whatsapp.com')
    const node = sent[0]!
    expect(node.tag).toBe('message')
    expect(node.attrs).toEqual({ to: '1@newsletter', id: 'MSG1', type: 'media', media_id: 'HANDLE-1' })
    const plaintext = (node.content as BinaryNode[])[0]!
    expect(plaintext.attrs).toEqual({ mediatype: 'image' })
    const msg = proto.Message.decode(plaintext.content as Uint8Array)
    expect(msg.imageMessage?.url).toBe('https://media.test/nl/1')
    expect(msg.imageMessage?.directPath).toBe('/nl/1')
    expect(msg.imageMessage?.caption).toBe('cap')
    expect(Buffer.from(msg.imageMessage!.fileSha256!).equals(sha)).toBe(true)
    expect(Number(msg.imageMessage?.fileLength)).toBe(bytes.length)
    expect(Buffer.from(msg.imageMessage!.jpegThumbnail!).toString()).toBe('thumb')
    expect(msg.imageMessage?.mediaKey?.length ?? 0).toBe(0)
  })

  it('an ack error is PLATFORM_REJECTED, no ack is PLATFORM_TIMEOUT', async () => {
    const input = { kind: 'document' as const, filePath: file, mimetype: 'application/pdf', fileName: 'a.pdf' }
    const opts = { ackTimeoutMs: 5000 }
    const rejected = await sendChannelMedia(
      socket(n => ({ tag: 'ack', attrs: { id: n.attrs.id!, error: '479' } }), []),
      '1@newsletter',
      'M2',
      input,
      opts,
    ).catch((e: unknown) => e as GatewayError)
    expect([rejected?.code, rejected?.message]).toEqual([
      'PLATFORM_REJECTED',
      'the platform rejected the message (error 479)',
    ])
    const timeout = await sendChannelMedia(
      socket(() => undefined, []),
      '1@newsletter',
      'M3',
      input,
      opts,
    ).catch((e: unknown) => e as GatewayError)
    expect(timeout?.code).toBe('PLATFORM_TIMEOUT')
  })

  it('explains a refused post: no such channel, not ours, or a kind channels do not carry (code kept)', async () => {
    const refusal = new GatewayError('PLATFORM_REJECTED', { platformCode: '400' })
    expect(((await explainChannelRejection(refusal, 'text', async () => undefined)) as GatewayError).code).toBe(
      'CHANNEL_NOT_FOUND',
    )
    const follower = async () => ({ role: 'SUBSCRIBER' })
    expect(((await explainChannelRejection(refusal, 'text', follower)) as GatewayError).code).toBe('CHANNEL_NOT_OWNED')
    const owner = async () => ({ role: 'OWNER' })
    const location = (await explainChannelRejection(refusal, 'location', owner)) as GatewayError
    expect([location.code, location.platformCode, location.message]).toEqual([
      'CHANNEL_POST_REJECTED',
      '400',
      'the platform rejected the message (error 400): channels accept only text, image, video, audio and document posts',
    ])
    expect(await explainChannelRejection(refusal, 'image', owner)).toBe(refusal)
  })
})
