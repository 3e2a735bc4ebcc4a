/**
 * @module platform/baileys/media/encrypt-file
 * End-to-end media encryption as the platform defines it, in one streaming pass over the file: a random 32-byte
 * media key expanded by HKDF-SHA256 (info `WhatsApp <Type> Keys`) into IV, AES key and MAC key; AES-256-CBC of the
 * file; HMAC-SHA256 over IV + ciphertext, its first 10 bytes appended; SHA-256 of the plain file and of the
 * encrypted file (ciphertext + MAC). Pieces of the file are read 1 MB at a time, so the work per byte is the crypto
 * itself.
 */
import { createCipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'

const READ_CHUNK = 1 << 20
const MAC_LENGTH = 10

export interface EncryptedFile {
  mediaKey: Buffer
  fileSha256: Buffer
  fileEncSha256: Buffer
  fileLength: number
}

/** The IV, AES key and MAC key of a media key. */
export function mediaKeys(mediaKey: Buffer, keyInfo: string): { iv: Buffer; cipherKey: Buffer; macKey: Buffer } {
  const expanded = Buffer.from(hkdfSync('sha256', mediaKey, Buffer.alloc(0), keyInfo, 112))
  return { iv: expanded.subarray(0, 16), cipherKey: expanded.subarray(16, 48), macKey: expanded.subarray(48, 80) }
}

/** Encrypts `plainPath` into `encPath` (created, 0600) and returns the key and hashes the message needs. */
export async function encryptFile(plainPath: string, encPath: string, keyInfo: string): Promise<EncryptedFile> {
  const mediaKey = randomBytes(32)
  const { iv, cipherKey, macKey } = mediaKeys(mediaKey, keyInfo)
  const cipher = createCipheriv('aes-256-cbc', cipherKey, iv)
  const hmac = createHmac('sha256', macKey).update(iv)
  const plainHash = createHash('sha256')
  const encHash = createHash('sha256')
  const out = createWriteStream(encPath, { mode: 0o600 })
  const failed = new Promise<never>((_, reject) => out.once('error', reject))
  failed.catch(() => undefined)
  const write = async (enc: Buffer): Promise<void> => {
    hmac.update(enc)
    encHash.update(enc)
    if (!out.write(enc)) await Promise.race([once(out, 'drain'), failed])
  }
  let fileLength = 0
  try {
    for await (const chunk of createReadStream(plainPath, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer>) {
      fileLength += chunk.length
      plainHash.update(chunk)
      await write(cipher.update(chunk))
    }
    await write(cipher.final())
    const mac = hmac.digest().subarray(0, MAC_LENGTH)
    encHash.update(mac)
    out.end(mac)
    await Promise.race([once(out, 'finish'), failed])
  } catch (err) {
    out.destroy()
    throw err
  }
  return { mediaKey, fileSha256: plainHash.digest(), fileEncSha256: encHash.digest(), fileLength }
}

/** SHA-256 and length of a file (channel media, uploaded unencrypted). */
export async function hashFile(filePath: string): Promise<{ fileSha256: Buffer; fileLength: number }> {
  const hash = createHash('sha256')
  let fileLength = 0
  for await (const chunk of createReadStream(filePath, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer>) {
    fileLength += chunk.length
    hash.update(chunk)
  }
  return { fileSha256: hash.digest(), fileLength }
}
