/**
 * @module actors/session/qr
 * Renders a platform QR string to the spec's `qrcode` field: a base64 PNG without a `data:` prefix.
 *
 * Grayscale, rows unfiltered: the PNG encoder's default tries five row filters on every row of RGBA pixels and
 * keeps the smallest, which was about a quarter of the CPU of `POST /session` → QR (BENCHMARKS.md) for an image
 * of two colours that deflate compresses well anyway. This way a render costs about half, for a PNG of ~11 KB
 * instead of ~7 KB.
 */
import QRCode from 'qrcode'

/** pngjs options: colour type 0 (grayscale), filter type 0 (none). */
const PNG_OPTIONS = { colorType: 0, filterType: 0 }

export async function renderQr(qr: string): Promise<string> {
  const png = await QRCode.toBuffer(qr, { type: 'png', errorCorrectionLevel: 'L', margin: 2, scale: 6, rendererOpts: PNG_OPTIONS } as QRCode.QRCodeToBufferOptions)
  return png.toString('base64')
}
