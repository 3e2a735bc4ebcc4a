/** The QR PNG a client shows its user: a phone camera reads back exactly the platform's QR string. */
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { renderQr } from '../../../../src/actors/session/qr.js'
import { decodeQrPng } from '../../../../src/demo/qr-decode.js'

describe('QR rendering', () => {
  it('renders a PNG that decodes to the platform string', async () => {
    const qr = `2@${'A1b2C3d4'.repeat(25)},${'k'.repeat(44)},${'n'.repeat(44)},${'p'.repeat(44)},1`
    const png = await renderQr(qr)
    expect(decodeQrPng(png)).toBe(qr)
    const image = PNG.sync.read(Buffer.from(png, 'base64'))
    expect(image.width).toBe(image.height)
  })
})
