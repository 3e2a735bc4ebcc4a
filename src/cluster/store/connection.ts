/**
 * @module cluster/store/connection
 * One node-redis client, loaded on first use with a dynamic import: only cluster mode (REDIS_URL set) ever loads
 * the package, so the default lmdb mode neither loads nor needs it. Replies come back as Buffers (sealed values
 * are bytes), commands are raw argument lists, and Lua scripts run by SHA with one EVAL when Redis does not know
 * the script yet (after a restart or a SCRIPT FLUSH).
 *
 * The offline queue is off: while Redis is unreachable a command fails at once instead of waiting, so a write
 * never lands late, after its lease may have moved (the fenced script checks again anyway).
 */
import { createHash } from 'node:crypto'

export type RedisArg = string | Buffer
export type RedisReply = null | number | Buffer | RedisReply[]

export interface LuaScript {
  source: string
  sha: string
}

export const luaScript = (source: string): LuaScript => ({
  source,
  sha: createHash('sha1').update(source).digest('hex'),
})

export interface RedisConnection {
  command(args: RedisArg[]): Promise<RedisReply>
  script(script: LuaScript, keys: string[], args: RedisArg[]): Promise<RedisReply>
  close(): Promise<void>
}

interface RawClient {
  connect(): Promise<unknown>
  close?(): Promise<void>
  quit?(): Promise<unknown>
  destroy?(): void
  on(event: 'error', listener: (err: unknown) => void): unknown
  sendCommand(args: RedisArg[]): Promise<unknown>
  withTypeMapping(mapping: Record<number, unknown>): RawClient
}

/** Connects to `url` (redis://[user:password@]host:port[/db]). `onError` hears connection errors (node-redis
 * reconnects by itself); without a listener they would end the process. node-redis keeps trying to connect for as
 * long as Redis is down, so `signal` is the way to give up: it drops the client and rejects. */
export async function connectRedis(
  url: string,
  onError: (err: unknown) => void = () => undefined,
  signal?: AbortSignal,
): Promise<RedisConnection> {
  signal?.throwIfAborted()
  const redis = await import('redis')
  const base = redis.createClient({ url, disableOfflineQueue: true }) as unknown as RawClient
  base.on('error', onError)
  await connectUnlessAborted(base, signal)
  const client = base.withTypeMapping({ [redis.RESP_TYPES.BLOB_STRING]: Buffer })
  const send = (args: RedisArg[]) => client.sendCommand(args) as Promise<RedisReply>
  return {
    command: send,
    async script(script, keys, args) {
      const tail = [String(keys.length), ...keys, ...args]
      try {
        return await send(['EVALSHA', script.sha, ...tail])
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err
        return send(['EVAL', script.source, ...tail])
      }
    },
    async close() {
      try {
        if (base.close) await base.close()
        else await base.quit?.()
      } catch {
        base.destroy?.()
      }
    },
  }
}

async function connectUnlessAborted(base: RawClient, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) {
    await base.connect()
    return
  }
  signal.throwIfAborted()
  const { promise: aborted, reject } = Promise.withResolvers<never>()
  const onAbort = () => {
    base.destroy?.()
    reject(signal.reason)
  }
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    await Promise.race([base.connect(), aborted])
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** A reply as text (Buffers decoded as UTF-8), or undefined for nil. */
export const text = (reply: RedisReply | undefined): string | undefined =>
  reply === null || reply === undefined ? undefined : Buffer.isBuffer(reply) ? reply.toString('utf8') : String(reply)
