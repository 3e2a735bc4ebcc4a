/**
 * @module test/support/png-bomb
 * A decompression bomb in the small: a valid PNG that declares `width` × `height` pixels (1-bit grey, every pixel
 * black) in a few KB, because rows of zeros deflate about a thousand to one. Decoding it costs what its pixel count
 * says, not what its bytes do: what MEDIA_MAX_PIXELS is for.
 */
import { crc32, deflateSync } from 'node:zlib'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 1 // bit depth
  header[9] = 0 // colour type: grey
  // each row: filter byte 0, then width bits of zeros
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height)
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
