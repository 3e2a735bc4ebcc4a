/**
 * @module cluster/limits
 * The per-client bucket of POST /session (SESSION_CREATE_PER_MINUTE) shared by every node, so a client that spreads
 * its requests over the nodes gets one budget, not one per node. One Lua script per take, on Redis' own clock (the
 * nodes' clocks never enter it); the client is named by a keyed hash of its address (peer-auth.ts `clientTag`).
 * Redis unreachable: 503 with Retry-After, as for anything else that needs it.
 */
import { GatewayError } from '../protocol/errors.js'
import type { CreationRate } from '../http/limits/creation-gate.js'
import { luaScript, type RedisConnection } from '../storage/redis/connection.js'
import { createRateKey } from '../storage/redis/keys.js'

/** KEYS bucket; ARGV tokens per ms, burst. Replies 0 (a token spent) or the ms until one is back (none spent). */
const TAKE = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local perMs, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * perMs)
local wait = 0
if tokens < 1 then wait = math.ceil((1 - tokens) / perMs) else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / perMs))
return wait
`)

export function clusterCreationRate(
  redis: () => Promise<RedisConnection>,
  tag: (clientKey: string) => string,
  perMinute: number,
): CreationRate | undefined {
  if (perMinute <= 0) return undefined
  const perMs = String(perMinute / 60_000)
  return {
    async take(key) {
      try {
        const conn = await redis()
        return Number(await conn.script(TAKE, [createRateKey(tag(key))], [perMs, String(perMinute)]))
      } catch {
        throw new GatewayError('OVERLOADED')
      }
    },
  }
}
