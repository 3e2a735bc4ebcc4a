/**
 * @module actors/session/qr
 * Renders a platform QR string to the spec's `qrcode` field: a base64 PNG without a `data:` prefix.
 */
import QRCode from 'qrcode'

export async function renderQr(qr: string): Promise<string> {
  const png = await QRCode.toBuffer(qr, { type: 'png', errorCorrectionLevel: 'L', margin: 2, scale: 6 })
  return png.toString('base64')
}
