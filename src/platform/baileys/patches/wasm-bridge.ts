/**
 * @module platform/baileys/patches/wasm-bridge
 * Baileys' four uses of `whatsapp-rust-bridge` answered by Node's crypto, so a shard thread never loads the bridge.
 *
 * Why: Baileys 7 imports the bridge (a WebAssembly build of Rust code, 2 MB of JavaScript with the module inlined
 * twice as base64) for `md5` and `hkdf` (`Utils/crypto.js`), the app-state keys (`Utils/chat-utils.js`) and the
 * app-state integrity hash (`Utils/lt-hash.js`). Loading it costs each shard thread ~18 MB of RSS (its source and
 * base64 strings, the compiled module, its linear memory) for work Node's crypto does in a few lines: the shard
 * thread is most of a small gateway's memory (docs/benchmarks-log.md, "Where a small gateway's memory goes").
 *
 * How: each of the three files' import of the bridge is rewritten as it loads (`source-hook.ts`) to import the same
 * names from this module. The unit test checks every function against the bridge itself on random inputs.
 */
import { createHash } from 'node:crypto'
import { hkdfSha256 } from './signal-hmac.js'
import { importRedirect, type SourcePatch } from './source-hook.js'

export function md5(buffer: Uint8Array): Uint8Array {
  return createHash('md5').update(buffer).digest()
}

/**
 * HKDF with SHA-256 (RFC 5869), the bridge's signature: no salt is HashLen zero bytes, no info is empty.
 * Built on two one-shot hashes per HMAC (`signal-hmac.ts`): Baileys derives a key for every message it sends (the
 * reporting token, `Utils/reporting-utils.js`). Node's `hkdfSync` asked "is it a KeyObject?" of raw bytes by a
 * thrown TypeError (4 % of a shard's CPU per text); with a KeyObject it was still ~30 µs a call in a send burst's
 * profile.
 */
export function hkdf(
  buffer: Uint8Array,
  expandedLength: number,
  info: { salt?: Uint8Array; info?: string },
): Uint8Array {
  return hkdfSha256(buffer, expandedLength, info.salt ?? EMPTY, info.info ?? '')
}

const EMPTY = new Uint8Array(0)

/** The five app-state keys: 160 bytes of HKDF from the key data, in this order. */
export function expandAppStateKeys(keyData: Uint8Array) {
  const k = hkdf(keyData, 160, { info: 'WhatsApp Mutation Keys' })
  return {
    indexKey: k.subarray(0, 32),
    valueEncryptionKey: k.subarray(32, 64),
    valueMacKey: k.subarray(64, 96),
    snapshotMacKey: k.subarray(96, 128),
    patchMacKey: k.subarray(128, 160),
  }
}

/**
 * The app-state integrity hash (a lattice hash): each value is expanded by HKDF to 128 bytes, read as 64 unsigned
 * 16-bit little-endian words, and subtracted from or added to the base word by word, modulo 2^16.
 */
export class LTHashAntiTampering {
  subtractThenAdd(base: Uint8Array, subtract: Uint8Array[], add: Uint8Array[]): Uint8Array {
    const out = new Uint8Array(base)
    const words = new DataView(out.buffer, out.byteOffset, out.byteLength)
    const apply = (item: Uint8Array, sign: 1 | -1) => {
      const h = hkdf(item, 128, { info: 'WhatsApp Patch Integrity' })
      const hw = new DataView(h.buffer, h.byteOffset, h.byteLength)
      for (let i = 0; i < 128; i += 2)
        words.setUint16(i, (words.getUint16(i, true) + sign * hw.getUint16(i, true)) & 0xffff, true)
    }
    for (const item of subtract) apply(item, -1)
    for (const item of add) apply(item, 1)
    return out
  }
}

const patchOf = (file: string, clause: string): SourcePatch =>
  importRedirect(`wasm bridge: ${file}`, file, clause, 'whatsapp-rust-bridge', import.meta.url)

export const wasmBridgePatches: readonly SourcePatch[] = [
  patchOf('lib/Utils/crypto.js', 'export { md5, hkdf }'),
  patchOf('lib/Utils/chat-utils.js', 'import { expandAppStateKeys }'),
  patchOf('lib/Utils/lt-hash.js', 'import { LTHashAntiTampering }'),
]
