/**
 * @module cluster/limits
 * The per-client bucket of POST /session (SESSION_CREATE_PER_MINUTE), and the pairing codes' buckets per client and
 * per phone number (http/limits/pairing-code-budget.ts), shared by every node, so a client that spreads its requests
 * over the nodes gets one budget, not one per node, and a number gets its few codes an hour from the whole cluster.
 * One Lua script per take, on Redis' own clock (the nodes' clocks never enter it); clients and numbers are named by
 * keyed hashes (peer-auth.ts `clientTag`, `phoneTag`), so Redis holds neither addresses nor numbers.
 * Redis unreachable: 503 with Retry-After, as for anything else that needs it.
 */
import { GatewayError } from '../protocol/errors.js'
import type { CreationRate, PairingCodeBudget, PairingCodeQuotas } from '../http/front-seam.js'
import { luaScript, type RedisConnection } from './store/connection.js'
import { createRateKey, pairingClientKey, pairingPhoneKey } from './store/keys.js'

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

/**
 * KEYS the client's bucket, the number's; ARGV per ms and burst of each (burst 0: that bucket is not limited). Takes
 * a token of both or of neither: replies {0, 0}, or {1 (the client's) or 2 (the number's), ms until it has one}.
 */
const TAKE_BOTH = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local levels = {}
for i = 1, 2 do
  local perMs, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  if burst > 0 then
    local b = redis.call('HMGET', KEYS[i], 'tokens', 'at')
    local tokens = math.min(burst, (tonumber(b[1]) or burst) + math.max(0, now - (tonumber(b[2]) or now)) * perMs)
    if tokens < 1 then return {i, math.ceil((1 - tokens) / perMs)} end
    levels[i] = tokens
  end
end
for i = 1, 2 do
  if levels[i] then
    local perMs, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
    redis.call('HSET', KEYS[i], 'tokens', tostring(levels[i] - 1), 'at', now)
    redis.call('PEXPIRE', KEYS[i], math.ceil(burst / perMs))
  end
end
return {0, 0}
`)

export interface ClusterTags {
  client(clientKey: string): string
  phone(phone: string): string
}

export function clusterPairingCodeBudget(
  redis: () => Promise<RedisConnection>,
  tags: ClusterTags,
  quotas: PairingCodeQuotas,
): PairingCodeBudget {
  const bucket = (perHour: number) => [String(perHour / 3_600_000), String(perHour)]
  const args = [...bucket(quotas.PAIRING_CODES_PER_CLIENT_PER_HOUR), ...bucket(quotas.PAIRING_CODES_PER_PHONE_PER_HOUR)]
  const limited = quotas.PAIRING_CODES_PER_CLIENT_PER_HOUR > 0 || quotas.PAIRING_CODES_PER_PHONE_PER_HOUR > 0
  return {
    async take(client, phone) {
      if (!limited) return undefined // nothing to count: no need of Redis
      let reply: [number, number]
      try {
        const conn = await redis()
        const keys = [pairingClientKey(tags.client(client)), pairingPhoneKey(tags.phone(phone))]
        reply = (await conn.script(TAKE_BOTH, keys, args)) as [number, number]
      } catch {
        throw new GatewayError('OVERLOADED')
      }
      const [which, waitMs] = reply.map(Number) as [number, number]
      return which === 0 ? undefined : { by: which === 1 ? 'client' : 'phone', waitMs }
    },
  }
}
