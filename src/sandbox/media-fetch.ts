/**
 * @module sandbox/media-fetch
 * What a recipient phone does with a media message: download the blob from the media host over HTTPS (trusting the
 * sandbox CA), check the encrypted hash and the 10-byte MAC, decrypt, and check the plaintext hash.
 */
import { createDecipheriv, createHash, createHmac } from 'node:crypto'
import https from 'node:https'
import { getMediaKeys } from '@whiskeysockets/baileys'
import type { MediaType } from '@whiskeysockets/baileys'

export interface MediaRef {
  url?: string | null
  directPath?: string | null
  mediaKey?: Uint8Array | null
  fileEncSha256?: Uint8Array | null
  fileSha256?: Uint8Array | null
}

/**
 * One agent per CA with a bounded socket pool: a status to a big address book makes a thousand phones fetch the same
 * blob at once, and a connection per phone overflows the media host's accept backlog (ECONNRESET). No keep-alive:
 * a reused socket the host has just timed out would fail the same way.
 */
const agents = new Map<string, https.Agent>()
const agentFor = (ca: string): https.Agent => {
  let agent = agents.get(ca)
  if (!agent) agents.set(ca, (agent = new https.Agent({ ca, keepAlive: false, maxSockets: 32 })))
  return agent
}

function get(url: string, ca: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { agent: agentFor(ca) }, res => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`media host answered ${res.statusCode}`)),
        )
        res.on('error', reject)
      })
      .on('error', reject)
  })
}

/** Returns the decrypted bytes; throws with a readable reason on any failed check. */
export async function fetchAndDecryptMedia(
  ref: MediaRef,
  mediaType: MediaType,
  mediaHost: string,
  ca: string,
): Promise<Buffer> {
  if (!ref.mediaKey) throw new Error('media message without mediaKey')
  const url = ref.url?.startsWith('https://127.0.0.1')
    ? ref.url
    : ref.directPath
      ? `https://${mediaHost}${ref.directPath}`
      : undefined
  if (!url) throw new Error('media message without url or directPath')
  const blob = await get(url, ca)
  if (ref.fileEncSha256 && !createHash('sha256').update(blob).digest().equals(Buffer.from(ref.fileEncSha256))) {
    throw new Error('fileEncSha256 mismatch')
  }
  const { iv, cipherKey, macKey } = await getMediaKeys(ref.mediaKey, mediaType)
  const ciphertext = blob.subarray(0, blob.length - 10)
  const mac = blob.subarray(blob.length - 10)
  const expected = createHmac('sha256', macKey as Uint8Array)
    .update(iv)
    .update(ciphertext)
    .digest()
    .subarray(0, 10)
  if (!expected.equals(mac)) throw new Error('media MAC mismatch')
  const decipher = createDecipheriv('aes-256-cbc', cipherKey, iv)
  const plain = Buffer.concat([decipher.update(ciphertext), decipher.final()])
  if (ref.fileSha256 && !createHash('sha256').update(plain).digest().equals(Buffer.from(ref.fileSha256))) {
    throw new Error('fileSha256 mismatch')
  }
  return plain
}
