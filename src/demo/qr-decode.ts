/**
 * Decodes the base64 PNG that GET /session returns back into the QR string, so the PNG itself is proven readable
 * by a real QR decoder (jsQR), as a phone camera would read it.
 */
import jsQR from 'jsqr'
import { PNG } from 'pngjs'

export function decodeQrPng(base64: string): string {
  const png = PNG.sync.read(Buffer.from(base64, 'base64'))
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
  if (!code) throw new Error('no QR code found in the PNG')
  return code.data
}
