import { createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { getMediaKeys } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptFile, hashFile, mediaKeys } from '../../../../../src/platform/baileys/media/encrypt-file.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'enc-file-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('media encryption in the pool', () => {
  it('derives the same IV, AES key and MAC key as Baileys for every media type', async () => {
    const key = randomBytes(32)
    for (const [type, info] of [
      ['image', 'Image'],
      ['video', 'Video'],
      ['audio', 'Audio'],
      ['document', 'Document'],
    ] as const) {
      const ours = mediaKeys(key, `WhatsApp ${info} Keys`)
      const theirs = await getMediaKeys(key, type)
      expect([ours.iv, ours.cipherKey, ours.macKey].map(b => b.toString('hex'))).toEqual(
        [theirs.iv, theirs.cipherKey, theirs.macKey].map(b => Buffer.from(b!).toString('hex')),
      )
    }
  })

  it('writes ciphertext + 10-byte MAC that decrypts to the file, with both hashes, readable only by the gateway', async () => {
    // 3 MB and a bit: several 1 MB reads and a partial AES block at the end
    const plain = randomBytes(3 * 1024 * 1024 + 123)
    const plainPath = path.join(dir, 'plain')
    const encPath = path.join(dir, 'plain.enc')
    await writeFile(plainPath, plain)
    const out = await encryptFile(plainPath, encPath, 'WhatsApp Document Keys')
    const enc = await readFile(encPath)
    const { iv, cipherKey, macKey } = mediaKeys(out.mediaKey, 'WhatsApp Document Keys')
    const body = enc.subarray(0, enc.length - 10)
    const mac = createHmac('sha256', macKey).update(iv).update(body).digest().subarray(0, 10)
    expect(enc.subarray(enc.length - 10).equals(mac)).toBe(true)
    const decipher = createDecipheriv('aes-256-cbc', cipherKey, iv)
    expect(Buffer.concat([decipher.update(body), decipher.final()]).equals(plain)).toBe(true)
    expect(out.fileLength).toBe(plain.length)
    expect(out.fileSha256.equals(createHash('sha256').update(plain).digest())).toBe(true)
    expect(out.fileEncSha256.equals(createHash('sha256').update(enc).digest())).toBe(true)
    expect((await stat(encPath)).mode & 0o777).toBe(0o600)
  })

  it('a fresh media key for every file', async () => {
    const plainPath = path.join(dir, 'same')
    await writeFile(plainPath, 'same bytes')
    const a = await encryptFile(plainPath, `${plainPath}.a`, 'WhatsApp Image Keys')
    const b = await encryptFile(plainPath, `${plainPath}.b`, 'WhatsApp Image Keys')
    expect(a.mediaKey.equals(b.mediaKey)).toBe(false)
    expect(a.fileSha256.equals(b.fileSha256)).toBe(true)
    expect(a.fileEncSha256.equals(b.fileEncSha256)).toBe(false)
  })

  it('hashes channel media as it is', async () => {
    const plain = randomBytes(1500)
    const p = path.join(dir, 'raw')
    await writeFile(p, plain)
    const out = await hashFile(p)
    expect(out.fileLength).toBe(1500)
    expect(out.fileSha256.equals(createHash('sha256').update(plain).digest())).toBe(true)
  })

  it('a missing file is an error, not a hang', async () => {
    await expect(
      encryptFile(path.join(dir, 'nope'), path.join(dir, 'nope.enc'), 'WhatsApp Image Keys'),
    ).rejects.toThrow(/ENOENT/)
  })
})
