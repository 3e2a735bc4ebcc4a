/**
 * @module actors/worker/sandbox-trust
 * When SANDBOX_URL is set, links connect to the loopback sandbox and need its trust material
 * (`platform/baileys/sandbox-trust.ts` fetches GET /trust). Fetched once per worker thread and shared by every session on
 * it; a failed fetch is forgotten, so the next link (the actor's reconnect backoff) tries again.
 */
import type { SandboxTrust } from '../../platform/link.js'
import { fetchSandboxTrust } from '../../platform/baileys/sandbox-trust.js'

export function sandboxTrustLoader(sandboxUrl: string | undefined): () => Promise<SandboxTrust | undefined> {
  let pending: Promise<SandboxTrust> | undefined
  return async () => {
    if (!sandboxUrl) return undefined
    pending ??= fetchSandboxTrust(sandboxUrl)
    try {
      return await pending
    } catch (err) {
      pending = undefined
      throw err
    }
  }
}
