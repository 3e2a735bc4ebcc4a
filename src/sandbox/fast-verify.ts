/**
 * @module sandbox/fast-verify
 * Simulated phones check XEdDSA signatures through Node's native Ed25519 (`platform/baileys/xeddsa.ts`) instead of the
 * pure-JS `curve25519-js` verify that libsignal and Baileys' group cipher call: ~14 ms each in JS, which made a
 * simulated phone crowd (a 1,200-contact status = 1,200 sender-key signature checks) take tens of seconds.
 * Installed once per process by `installFastVerify()`; the sandbox only.
 */
import { createRequire } from 'node:module'
import { xeddsaVerify } from '../platform/baileys/xeddsa.js'

export { xeddsaVerify }

let installed = false

/** Replaces curve25519-js `verify` (shared by libsignal and Baileys' sender keys) for this process. */
export function installFastVerify(): void {
  if (installed) return
  installed = true
  const curve = createRequire(import.meta.url)('curve25519-js') as { verify: typeof xeddsaVerify }
  curve.verify = xeddsaVerify
}
