/**
 * @module media/compress
 * Status images are recompressed before upload (spec: "images are compressed to suit a status"; Baileys uploads the
 * bytes as given). Chosen parameters, WhatsApp Web's exact ones being unknown: honour EXIF orientation, fit inside
 * 1080x1920 without enlarging, JPEG quality 75 with mozjpeg. An image over `maxPixels` (MEDIA_MAX_PIXELS) is not
 * decoded: sharp throws `Input image exceeds pixel limit` (message-content.ts refuses it with a 400 first).
 */
import { loadSharp } from './sharp.js'

const STATUS_MAX_WIDTH = 1080
const STATUS_MAX_HEIGHT = 1920
const STATUS_JPEG_QUALITY = 75

export async function compressStatusImage(input: Buffer | string, maxPixels: number): Promise<Buffer> {
  const sharp = await loadSharp()
  return sharp(input, { failOn: 'none', limitInputPixels: maxPixels })
    .rotate()
    .resize({ width: STATUS_MAX_WIDTH, height: STATUS_MAX_HEIGHT, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: STATUS_JPEG_QUALITY, mozjpeg: true })
    .toBuffer()
}
