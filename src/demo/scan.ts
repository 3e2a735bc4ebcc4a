/**
 * @module demo/scan
 * Pairs a session through the sandbox the way a person would with a phone: reads the QR off `GET /session`,
 * decodes the PNG like a camera, has a simulated phone of the sandbox scan it (`POST /scan`), and waits until the
 * gateway shows the session connected (and, briefly, until the account's restrictions are read). It waits with the typed client's `waitForSession` (the waiting GET /session:
 * each answer comes the moment the QR appears or the phone has paired, no polling). `npm run demo:scan`, the demo
 * test and the ops tests use it.
 */
import { createGatewayClient, waitForSession } from '../client/index.js'
import { DEMO_PHONE } from './defaults.js'
import { decodeQrPng } from './qr-decode.js'

export interface ScanRequest {
  gatewayUrl: string
  sandboxUrl: string
  id: string
  sessionId: string
  /** The simulated phone that scans; default Alice of the sandbox's demo world. */
  phone?: string
}

/** `call`, with a failure to connect at all (nothing listens there, a wrong host) said as the URL it could not
 * reach: fetch's own `fetch failed` names neither the URL nor the cause. */
async function reaching<T>(what: string, url: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (err) {
    if (!(err instanceof TypeError) || err.message !== 'fetch failed') throw err
    const cause = err.cause as NodeJS.ErrnoException | undefined
    const why = cause?.code ?? cause?.message
    throw new Error(`cannot reach the ${what} at ${url}${why ? ` (${why})` : ''}`)
  }
}

export async function scanSession(request: ScanRequest): Promise<{ generatedId: string; name: string }> {
  const { gatewayUrl, sandboxUrl, id, sessionId, phone = DEMO_PHONE } = request
  const gateway = createGatewayClient(gatewayUrl)
  const session = { id, sessionId }
  const onGateway = <T>(call: () => Promise<T>) => reaching('gateway', gatewayUrl, call)
  const first = await onGateway(() => waitForSession(gateway, session, () => true))
  if (first.isConnected) throw new Error('this session is already connected')
  const { qrcode } = await onGateway(() =>
    waitForSession(gateway, session, s => s.qrcode !== '', { timeoutMs: 60_000 }),
  )
  const scan = await reaching('sandbox', sandboxUrl, () =>
    fetch(`${sandboxUrl}/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ qr: decodeQrPng(qrcode), phone }),
    }),
  )
  if (scan.status !== 200) throw new Error(`sandbox POST /scan → ${scan.status} ${await scan.text()}`)
  const connected = await onGateway(() => waitForSession(gateway, session, s => s.isConnected, { timeoutMs: 90_000 }))
  // The account's restrictions are read right after the connection opens (a round trip to the platform): waiting
  // briefly for them leaves the session settled, so the next GET /session shows what the README's walk prints. A
  // platform that does not answer them delays the scan by this wait at most.
  await waitForSession(gateway, session, s => s.restrictions !== undefined, { timeoutMs: 10_000 }).catch(() => {})
  return { generatedId: connected.generatedId, name: connected.name }
}
