/**
 * @module platform/baileys/sandbox-trust
 * Reads the loopback sandbox's trust material (GET `${SANDBOX_URL}/trust` → { wsUrl, rootPublicKey, caCert }) so
 * the unmodified Baileys client can verify the sandbox's Noise certificate chain and TLS media host.
 */
import type { SandboxTrust } from '../link.js'

export async function fetchSandboxTrust(sandboxUrl: string, timeoutMs = 10_000): Promise<SandboxTrust> {
  const url = `${sandboxUrl.replace(/\/+$/, '')}/trust`
  let res: Response
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
  } catch (err) {
    throw new Error(
      `sandbox unreachable at ${url}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`,
    )
  }
  if (!res.ok) throw new Error(`sandbox trust request ${url} failed: ${res.status} ${res.statusText}`)
  const body = (await res.json()) as Partial<SandboxTrust>
  if (typeof body.wsUrl !== 'string' || typeof body.rootPublicKey !== 'string' || typeof body.caCert !== 'string') {
    throw new Error(`sandbox trust at ${url} lacks wsUrl, rootPublicKey or caCert`)
  }
  return { wsUrl: body.wsUrl, rootPublicKey: body.rootPublicKey, caCert: body.caCert }
}
