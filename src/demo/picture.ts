/**
 * @module demo/picture
 * A picture the tour sends as an image message: served by the demo itself on loopback, so the step works with no
 * internet (a URL on the web fails offline). A small PNG drawn at start; the gateway fetches it like any media URL
 * (the demo lets media URLs point at loopback, MEDIA_ALLOW_PRIVATE_URLS).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'

export const PICTURE_PATH = '/picture.png'

export interface PictureServer {
  url: string
  close(): Promise<void>
}

/** Serves the picture at `PICTURE_PATH` on a port of 127.0.0.1 the kernel picks; anything else is 404. */
export async function servePicture(): Promise<PictureServer> {
  const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: { r: 37, g: 211, b: 102 } } })
    .png()
    .toBuffer()
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === PICTURE_PATH) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length })
      res.end(png)
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${PICTURE_PATH}`,
    close: () =>
      new Promise(resolve => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
