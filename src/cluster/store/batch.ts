/**
 * @module cluster/store/batch
 * How the Redis store writes: every change of a session's rows is one `Batch`, applied by one run of the fenced
 * write script (fencing.ts), checked against the caller's lease and epoch when the store has a fence, and against
 * the session key it was sealed with. Building a batch encodes and seals everything before anything is sent: a
 * failure writes nothing, and Baileys' `keys.set()` is applied whole or not at all.
 */
import type { RedisArg, RedisConnection } from './connection.js'
import { sessionKeys } from './keys.js'
import type { RowSeal, Sealing } from './sealing.js'
import { countFencedWrite, FencedWriteError, leaseValue, WRITE_SCRIPT, type Fence, type FenceToken } from './fencing.js'

/** A batch of writes for one session, applied by WRITE_SCRIPT. */
export class Batch {
  readonly keys: string[]
  readonly ops: RedisArg[] = []
  readonly #index = new Map<string, string>()

  constructor(readonly id: string) {
    const k = sessionKeys(id)
    this.keys = [k.lease, k.epoch, k.skey]
  }

  #key(key: string): string {
    let at = this.#index.get(key)
    if (at === undefined) {
      this.keys.push(key)
      at = String(this.keys.length)
      this.#index.set(key, at)
    }
    return at
  }

  set(key: string, value: RedisArg): this {
    this.ops.push('S', this.#key(key), value)
    return this
  }
  del(key: string): this {
    this.ops.push('D', this.#key(key))
    return this
  }
  hset(key: string, field: string, value: RedisArg): this {
    this.ops.push('H', this.#key(key), field, value)
    return this
  }
  hdel(key: string, field: string): this {
    this.ops.push('X', this.#key(key), field)
    return this
  }
  zadd(key: string, score: number, member: string): this {
    this.ops.push('A', this.#key(key), String(score), member)
    return this
  }
  zrem(key: string, member: string): this {
    this.ops.push('R', this.#key(key), member)
    return this
  }
  /** Deletes the session key if none of `keys` is left (last op of a removal). */
  dropKeyUnless(keys: string[]): this {
    this.ops.push('Z', String(keys.length), ...keys.map(k => this.#key(k)))
    return this
  }
  get empty(): boolean {
    return this.ops.length === 0
  }
}

/** The session key changed between sealing and writing (another writer made one): seal again. */
class StaleSessionKey extends Error {}

export interface BatchWriter {
  /** A sealed write: builds the batch with the session's write seal; once more if its key changed meanwhile. */
  write(id: string, build: (seal: RowSeal, batch: Batch) => void): Promise<void>
  /** Removes rows of one session (and, when none of `keysLeft` is left, its key), fenced like any write. */
  remove(id: string, build: (batch: Batch) => void, keysLeft: string[]): Promise<void>
  /** A fenced write of values not sealed with the session's key (its registry row, sealed with DATA_KEY). */
  unsealed(id: string, build: (batch: Batch) => void): Promise<void>
}

export function batchWriter(
  ready: Promise<RedisConnection>,
  sealing: Sealing,
  sealed: boolean,
  fence: Fence | undefined,
): BatchWriter {
  /** Applies a batch under the session's fence, and the session key check of `seal`. */
  async function apply(batch: Batch, seal: RowSeal | undefined): Promise<void> {
    if (batch.empty) return
    const conn = await ready
    let token: FenceToken | undefined
    if (fence) {
      try {
        token = fence.token(batch.id)
      } catch (err) {
        if (err instanceof FencedWriteError) countFencedWrite()
        throw err
      }
    }
    const skeyCheck = !sealed || !seal ? '0' : seal.skey ? '1' : '2'
    const args: RedisArg[] = [
      token ? '1' : '0',
      token ? leaseValue(token) : '',
      token ? String(token.epoch) : '',
      skeyCheck,
      seal?.skey ?? '',
      ...batch.ops,
    ]
    try {
      await conn.script(WRITE_SCRIPT, batch.keys, args)
    } catch (err) {
      const message = err instanceof Error ? err.message : ''
      if (token && message.startsWith('FENCED')) {
        countFencedWrite()
        fence!.refused(batch.id, token)
        throw new FencedWriteError(batch.id, message.includes('stale-epoch') ? 'stale-epoch' : 'lease-lost')
      }
      if (message.startsWith('STALEKEY')) throw new StaleSessionKey()
      throw err
    }
  }

  return {
    async write(id, build) {
      for (let attempt = 0; ; attempt++) {
        const seal = await sealing.forWrite(id)
        const batch = new Batch(id)
        build(seal, batch)
        try {
          return await apply(batch, seal)
        } catch (err) {
          if (!(err instanceof StaleSessionKey) || attempt > 0) throw err
        }
      }
    },
    async unsealed(id, build) {
      const batch = new Batch(id)
      build(batch)
      await apply(batch, undefined)
    },
    async remove(id, build, keysLeft) {
      const batch = new Batch(id)
      build(batch)
      // The session key goes with the last of its rows, in the same script: whatever was sealed with it can no
      // longer be read, and no write can slip in between.
      if (sealed) batch.dropKeyUnless(keysLeft)
      await apply(batch, undefined)
      sealing.forget(id)
    },
  }
}
