/**
 * @module platform/baileys/patches/random-pool
 * Serves Node's synchronous `crypto.randomBytes` for small sizes from a pool of CSPRNG bytes, in the thread that
 * runs the platform client.
 *
 * Why: Baileys and libsignal ask for a few random bytes at a time on every send (the frame padding, message
 * secrets, a ratchet's new key pair), and each synchronous `randomBytes` call makes a crypto job object in C++,
 * runs it and drops it: `randomFillSync` was ~2.5 % of a shard's busy time in a send burst (bench:send-profile,
 * measured in the send profile). Node's own `randomUUID` pools its random bytes the same way.
 *
 * How: one 4 KiB buffer filled by `randomFillSync` (the same CSPRNG) and refilled when used up; a request of up to
 * 256 bytes gets a fresh buffer with a copy of the next unused bytes, and those bytes are zeroed in the pool at once,
 * so no byte is handed out twice and none stays behind after it was handed out. Larger requests and the callback
 * form go to Node as before. `syncBuiltinESMExports()` makes Baileys' `import { randomBytes } from 'crypto'` see
 * the wrapper too. No node_modules edit; installed once per thread by the patch inventory.
 */
import crypto from 'node:crypto'
import { syncBuiltinESMExports } from 'node:module'

const INSTALLED = Symbol.for('gateway.random-pool')
const POOL_BYTES = 4096
/** Requests above this go to Node unpooled: they are rare (media keys are 32 bytes) and would drain the pool. */
export const MAX_POOLED_BYTES = 256

/** A `randomBytes(size)` drawing from one pool of `poolBytes` bytes refilled by `fill`. */
export function pooledRandomBytes(
  fill: (pool: Buffer) => void = pool => crypto.randomFillSync(pool),
  poolBytes = POOL_BYTES,
): (size: number) => Buffer {
  const pool = Buffer.alloc(poolBytes)
  let offset = poolBytes
  return size => {
    if (offset + size > poolBytes) {
      fill(pool)
      offset = 0
    }
    const out = Buffer.allocUnsafe(size)
    pool.copy(out, 0, offset, offset + size)
    pool.fill(0, offset, offset + size)
    offset += size
    return out
  }
}

/** Idempotent: wraps this thread's `crypto.randomBytes` (sync calls of 0 to 256 bytes come from the pool). */
export function installRandomPool(): void {
  const target = crypto as unknown as Record<PropertyKey, unknown>
  if (target[INSTALLED]) return
  const randomBytes = crypto.randomBytes as (...args: unknown[]) => Buffer
  const pooled = pooledRandomBytes()
  target.randomBytes = (size: unknown, ...rest: unknown[]) =>
    rest.length === 0 && Number.isInteger(size) && (size as number) >= 0 && (size as number) <= MAX_POOLED_BYTES
      ? pooled(size as number)
      : randomBytes(size, ...rest)
  target[INSTALLED] = true
  syncBuiltinESMExports()
}
