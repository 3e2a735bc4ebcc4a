/**
 * @module media/image-pixels
 * The pixel limit (`MEDIA_MAX_PIXELS`) of the images a tenant sends. Bytes say little about what decoding costs: a
 * PNG of a few hundred KB can declare 16,000 × 16,000 pixels and take seconds of CPU and hundreds of MB to decode.
 * Every sharp call of the gateway passes the limit as `limitInputPixels`; an image or status image over it is
 * refused first, from its header alone, with a 400 the client can act on, rather than sent with the default
 * thumbnail (and to a recipient's phone that would have to decode it too).
 */
import { loadSharp } from './sharp.js'
import { GatewayError } from '../protocol/errors.js'

/**
 * Throws `400 image is larger than the limit of <max> pixels (<width> x <height>)` when the file's header declares
 * more than `maxPixels`. A file sharp cannot read is let through: the thumbnail falls back as for any other
 * unreadable image.
 */
export async function checkImagePixels(file: string, maxPixels: number): Promise<void> {
  const sharp = await loadSharp()
  // the header only (no decoding), read without the limit so that the answer can name the size
  const header = await sharp(file, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined)
  if (!header?.width || !header.height) return
  if (header.width * header.height > maxPixels)
    throw new GatewayError('MEDIA_TOO_MANY_PIXELS', {
      kind: 'image',
      max: maxPixels,
      width: header.width,
      height: header.height,
    })
}
