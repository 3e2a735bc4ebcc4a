/**
 * @module cluster/store/fencing
 * Fenced writes. In cluster mode every write of a session's data (credentials, Signal keys, contacts, sent
 * messages, its registry row) and every removal (a reset's, a deletion's, the QR deadline's) is one Lua script that
 * first checks that the caller's epoch is still the session's epoch and that the lease still names the caller with
 * that epoch, and only then applies the whole batch; otherwise nothing is written or removed and the caller gets a
 * `FencedWriteError`. A node paused past its lease (GC, SIGSTOP, a slow disk) cannot overwrite or delete what its
 * successor runs when it wakes: its epoch is older. Only the creation of a session's row is not fenced (nobody
 * holds its lease yet): it writes only a row that does not exist (registry.ts).
 *
 * Comparing epochs, not owner names, is the point: the same node may own a session again later (restart with
 * the same NODE_ID), and only the epoch tells its old and new incarnations apart.
 */
import { luaScript } from './connection.js'
import { countInThread } from '../../metrics/thread-counters.js'
import { GatewayError } from '../../protocol/errors.js'

/** What a writer presents: the node it runs as and the epoch it acquired the lease with. */
export interface FenceToken {
  node: string
  epoch: number
}

/** The lease value in Redis: `<node>|<epoch>`. */
export const leaseValue = (token: FenceToken): string => `${token.node}|${token.epoch}`

/** Where a store gets the caller's token for a session. */
export interface Fence {
  /** The token to write with; throws FencedWriteError when this node does not hold the lease (or its deadline passed). */
  token(id: string): FenceToken
  /** Redis refused a write made with `token`: the lease moved, expired or was released. */
  refused(id: string, token: FenceToken): void
}

/**
 * A write refused because this node does not hold the session's lease (any more). To a client it means the session
 * runs on another node now, or will in a moment: 503 SESSION_MOVING (a node that forwarded the request asks again
 * where it runs).
 */
export class FencedWriteError extends GatewayError<'SESSION_MOVING'> {
  constructor(
    readonly sessionId: string,
    readonly reason: 'not-held' | 'stale-epoch' | 'lease-lost',
  ) {
    super('SESSION_MOVING')
    this.name = 'FencedWriteError'
  }

  /** For the log: why the write was refused (the client sees SESSION_MOVING's words). */
  get detail(): string {
    return `write refused: this node does not hold the lease of the session (${this.reason})`
  }
}

/** Counts one refused write (metric gateway_cluster_fenced_writes_refused_total). */
export const countFencedWrite = (): void => countInThread('fencedWrites')

/**
 * The write script. KEYS: lease, epoch, skey, then the keys the ops name (by index into KEYS).
 * ARGV: fenced ('1'/'0'), lease value, epoch, skey check ('0' none, '1' must equal ARGV[5], '2' must be absent),
 * expected skey, then ops: `S k v` SET, `D k` DEL, `H k f v` HSET, `X k f` HDEL, `A k score m` ZADD, `R k m` ZREM
 * (the registry's index of unpaired sessions), and `Z n k1..kn`: delete the
 * session key (KEYS[3]) if none of the n keys exists any more (after the other ops: the key goes with the last row
 * sealed with it, in the same atomic step).
 * Replies 1, or an error `FENCED <reason>` / `STALEKEY` having written nothing. Every check (and a pass over the
 * ops) runs before the first write, and Redis runs a script alone: the batch is all or nothing, and no reader sees
 * half of it.
 */
export const WRITE_SCRIPT = luaScript(`
local width = { S = 3, D = 2, H = 4, X = 3, A = 4, R = 3 }
local i = 6
while i <= #ARGV do
  local op = ARGV[i]
  if op == 'Z' then i = i + 2 + tonumber(ARGV[i + 1])
  elseif width[op] then i = i + width[op]
  else return redis.error_reply('bad op') end
end
if i ~= #ARGV + 1 then return redis.error_reply('bad op list') end
if ARGV[1] == '1' then
  if redis.call('GET', KEYS[2]) ~= ARGV[3] then return redis.error_reply('FENCED stale-epoch') end
  if redis.call('GET', KEYS[1]) ~= ARGV[2] then return redis.error_reply('FENCED lease-lost') end
end
if ARGV[4] == '1' then
  if redis.call('GET', KEYS[3]) ~= ARGV[5] then return redis.error_reply('STALEKEY') end
elseif ARGV[4] == '2' then
  if redis.call('EXISTS', KEYS[3]) == 1 then return redis.error_reply('STALEKEY') end
end
i = 6
while i <= #ARGV do
  local op = ARGV[i]
  if op == 'Z' then
    local n = tonumber(ARGV[i + 1])
    local left = 0
    for j = 1, n do left = left + redis.call('EXISTS', KEYS[tonumber(ARGV[i + 1 + j])]) end
    if left == 0 then redis.call('DEL', KEYS[3]) end
    i = i + 2 + n
  else
    local k = KEYS[tonumber(ARGV[i + 1])]
    if op == 'S' then redis.call('SET', k, ARGV[i + 2])
    elseif op == 'D' then redis.call('DEL', k)
    elseif op == 'H' then redis.call('HSET', k, ARGV[i + 2], ARGV[i + 3])
    elseif op == 'X' then redis.call('HDEL', k, ARGV[i + 2])
    elseif op == 'A' then redis.call('ZADD', k, ARGV[i + 2], ARGV[i + 3])
    else redis.call('ZREM', k, ARGV[i + 2]) end
    i = i + width[op]
  end
end
return 1
`)
