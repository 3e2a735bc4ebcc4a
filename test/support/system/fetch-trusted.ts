/**
 * Reads a picture from the sandbox media host the way a client that trusts the sandbox CA would (GET /trust caCert).
 * Shared by the groups and channels system tests.
 */
import https from 'node:https'

/** The sandbox media host uses the sandbox's own CA; the test reads the picture like a client trusting that CA. */
export async function fetchTrusted(url: string, ca: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, res => {
        const chunks: Buffer[] = []
        res.on('data', c => chunks.push(c))
        res.on('end', () =>
          res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`GET ${url} → ${res.statusCode}`)),
        )
      })
      .on('error', reject)
  })
}
