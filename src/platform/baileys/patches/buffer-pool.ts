/**
 * @module platform/baileys/patches/buffer-pool
 * Node's shared Buffer slab made 8 KB again (Node 24's default is 64 KB, Node 20's was 8 KB).
 *
 * Why: small Buffers (Buffer.from, concat, allocUnsafe under half the pool) are cut from a shared pool slab, and a
 * slab stays allocated while any Buffer cut from it lives. Every session keeps a few small Buffers for its lifetime
 * (its keys, the noise handshake's), and each cut while pairing or connecting left a mostly-garbage 64 KB slab behind:
 * a heap snapshot of a shard with 114 idle sessions held 90 such slabs, ~50 KB a session (measured). 8 KB slabs cost
 * a new slab 8 times as often, one allocation per 8 KB of small Buffers.
 */

export const BUFFER_POOL_SIZE = 8 * 1024

/** Once per thread, before the sessions' first Buffers are cut. */
export function installBufferPoolSize(): void {
  Buffer.poolSize = BUFFER_POOL_SIZE
}
