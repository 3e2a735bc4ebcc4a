/**
 * Decodes the base64 PNG that GET /session returns back into the QR string, as a phone camera would read it
 * (jsQR). The demo, the bench and the tests use it, so the PNG itself is proven readable.
 */
import jsQRModule from 'jsqr'
import { PNG } from 'pngjs'

// jsqr is CommonJS with an `exports.default`: NodeNext types see the module object, bundlers the function.
type Decode = typeof jsQRModule.default
const jsQR: Decode = (jsQRModule as unknown as { default?: Decode }).default ?? (jsQRModule as unknown as Decode)

/** The QR string, or undefined when the PNG holds no readable QR code. */
export function readQrPng(base64Png: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(base64Png, 'base64'))
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}

export function decodeQrPng(base64Png: string): string {
  const qr = readQrPng(base64Png)
  if (qr === undefined) throw new Error('no QR code found in the PNG')
  return qr
}
