/**
 * @module demo/scan
 * Pairs a session through the sandbox the way a person would with a phone: reads the QR off `GET /session`,
 * decodes the PNG like a camera, has a simulated phone of the sandbox scan it (`POST /scan`), and waits until the
 * gateway shows the session connected. `npm run demo:scan`, the demo test and the ops tests use it.
 */
import { DEMO_PHONE } from './defaults.js'
import { decodeQrPng } from './qr-decode.js'
import { waitFor } from './processes.js'

export interface ScanRequest {
  gatewayUrl: string
  sandboxUrl: string
  id: string
  sessionId: string
  /** The simulated phone that scans; default Alice of the sandbox's demo world. */
  phone?: string
}

interface SessionBody {
  qrcode?: string
  isConnected?: boolean
  generatedId?: string
  name?: string
  message?: string
}

export async function scanSession(request: ScanRequest): Promise<{ generatedId: string; name: string }> {
  const { gatewayUrl, sandboxUrl, id, sessionId, phone = DEMO_PHONE } = request
  const session = async (): Promise<SessionBody> => {
    const res = await fetch(`${gatewayUrl}/session`, { headers: { id, 'session-id': sessionId } })
    const body = (await res.json()) as SessionBody
    if (res.status !== 200) throw new Error(`GET /session → ${res.status} ${body.message ?? ''}`)
    return body
  }
  const first = await session()
  if (first.isConnected) throw new Error('this session is already connected')
  const png = await waitFor('a QR in GET /session', async () => (await session()).qrcode || undefined)
  const scan = await fetch(`${sandboxUrl}/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ qr: decodeQrPng(png), phone }),
  })
  if (scan.status !== 200) throw new Error(`sandbox POST /scan → ${scan.status} ${await scan.text()}`)
  const connected = await waitFor(
    'the session to connect',
    async () => {
      const s = await session()
      return s.isConnected ? s : undefined
    },
    90_000,
  )
  return { generatedId: connected.generatedId ?? '', name: connected.name ?? '' }
}
