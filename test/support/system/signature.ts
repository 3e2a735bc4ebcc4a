/**
 * Helpers for test/system/pairing/signature.test.ts: a sandbox process started with its CLI fault environment, and a QR scan
 * whose refusal the test inspects (the harness's `pair` expects success).
 */
import { decodeQrPng } from '../../../src/demo/qr-decode.js'
import { startSandbox, type SandboxProcess } from '../processes.js'
import { sandboxCall, type Gateway, type Session } from './harness.js'
import { waitFor } from '../wait-for.js'

/** Starts the sandbox CLI with extra environment (e.g. SANDBOX_WRONG_CHAIN_KEY=1); the child inherits it. */
export async function startSandboxWithEnv(env: Record<string, string>): Promise<SandboxProcess> {
  const saved = Object.fromEntries(Object.keys(env).map(k => [k, process.env[k]]))
  Object.assign(process.env, env)
  try {
    return await startSandbox()
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
}

/** Waits for a QR in GET /session other than `previous`, has the sandbox phone scan it, returns the scan answer. */
export async function scanNextQr(gw: Gateway, sandboxUrl: string, s: Session, phone: string, previous = '') {
  const png = await waitFor(
    'a new QR in GET /session',
    async () => {
      const qr = (await gw.session(s)).body.qrcode as string
      return qr && qr !== previous ? qr : undefined
    },
    90_000,
  )
  const scan = await sandboxCall(sandboxUrl, 'POST', '/scan', { qr: decodeQrPng(png), phone })
  return { png, scan }
}
