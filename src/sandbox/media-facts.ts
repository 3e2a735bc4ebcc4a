/**
 * @module sandbox/media-facts
 * What a phone would notice about received media beyond its hash: the pixel size of an image, and the average
 * colour of the embedded JPEG thumbnail, so a test can tell a thumbnail taken from the media apart from a generic
 * default one. Failures leave the fact out: facts never fail a message.
 */
import sharp from 'sharp'

/** Width and height of a decoded image, or undefined when it is not one sharp can read. */
export async function imageSize(bytes: Buffer): Promise<{ width: number; height: number } | undefined> {
  try {
    const meta = await sharp(bytes, { failOn: 'none' }).metadata()
    return meta.width && meta.height ? { width: meta.width, height: meta.height } : undefined
  } catch {
    return undefined
  }
}

/** Mean [r, g, b] (0–255, rounded) over an image, or undefined when it is not one. */
export async function meanColor(bytes: Buffer): Promise<[number, number, number] | undefined> {
  try {
    const { channels } = await sharp(bytes, { failOn: 'none' }).stats()
    const mean = (i: number): number => Math.round(channels[i]?.mean ?? channels[0]?.mean ?? 0)
    return [mean(0), mean(1), mean(2)]
  } catch {
    return undefined
  }
}
