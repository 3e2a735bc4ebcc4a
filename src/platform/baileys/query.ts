/**
 * @module platform/baileys/query
 * `sock.query` with the gateway's rules (BAILEYS-MAPPING §1.6): always an explicit timeout, and Baileys' silent
 * `undefined` on timeout becomes PLATFORM_TIMEOUT. Also the mex (GraphQL-over-IQ) call, issued directly because
 * Baileys' own wrapper is not on the socket and uses the 60 s default timeout. Baileys helpers that take no timeout
 * are raced against one with `withTimeout`.
 */
import { getBinaryNodeChild, S_WHATSAPP_NET, type BinaryNode } from '@whiskeysockets/baileys'
import { GatewayError } from '../../protocol/errors.js'

export type QueryFn = (node: BinaryNode, timeoutMs?: number) => Promise<BinaryNode | undefined>

export async function queryOrTimeout(query: QueryFn, node: BinaryNode, timeoutMs: number): Promise<BinaryNode> {
  const res = await query(node, timeoutMs)
  if (!res) throw new GatewayError('PLATFORM_TIMEOUT')
  return res
}

/** Races a socket promise against the query timeout (Baileys helpers without a timeout parameter). */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GatewayError('PLATFORM_TIMEOUT')), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** The `data` code Baileys attaches to IQ error answers (`assertNodeErrorFree` → Boom data = code). */
export function iqErrorCode(err: unknown): number | undefined {
  const data = (err as { data?: unknown } | undefined)?.data
  const code = typeof data === 'number' ? data : typeof data === 'string' ? Number(data) : NaN
  return Number.isFinite(code) ? code : undefined
}

class MexError extends Error {
  constructor(
    message: string,
    readonly errorCode: number | undefined,
  ) {
    super(message)
    this.name = 'MexError'
  }
}

/** The platform answered with a refusal (an IQ error code or a GraphQL error), as opposed to a local failure. */
export const isPlatformRefusal = (err: unknown): boolean => err instanceof MexError || iqErrorCode(err) !== undefined

/** Runs a persisted mex query and returns `data[dataPath]` (undefined when absent). Throws MexError on GraphQL errors. */
export async function mexQuery<T>(
  query: QueryFn,
  queryId: string,
  variables: object,
  dataPath: string,
  timeoutMs: number,
): Promise<T | undefined> {
  const res = await queryOrTimeout(
    query,
    {
      tag: 'iq',
      attrs: { type: 'get', to: S_WHATSAPP_NET, xmlns: 'w:mex' },
      content: [{ tag: 'query', attrs: { query_id: queryId }, content: Buffer.from(JSON.stringify({ variables })) }],
    },
    timeoutMs,
  )
  const result = getBinaryNodeChild(res, 'result')
  if (!result?.content) return undefined
  const text =
    Buffer.isBuffer(result.content) || result.content instanceof Uint8Array
      ? Buffer.from(result.content).toString('utf8')
      : String(result.content)
  const json = JSON.parse(text) as {
    data?: Record<string, unknown>
    errors?: Array<{ message?: string; extensions?: { error_code?: number } }>
  }
  if (json.errors?.length) {
    const first = json.errors[0]
    throw new MexError(json.errors.map(e => e.message ?? 'unknown error').join(', '), first?.extensions?.error_code)
  }
  return json.data?.[dataPath] as T | undefined
}

/**
 * The account's followed and managed channels (mex `xwa2_newsletter_subscribed`). Baileys 7 has no call for it and
 * the platform rotates persisted-query ids, so the id is configuration; when the platform refuses it the error says
 * which id was refused instead of a bare "internal server error".
 */
export async function subscribedChannelsQuery<T>(query: QueryFn, queryId: string, timeoutMs: number): Promise<T[]> {
  try {
    return (await mexQuery<T[]>(query, queryId, {}, 'xwa2_newsletter_subscribed', timeoutMs)) ?? []
  } catch (err) {
    if (!isPlatformRefusal(err)) throw err
    const code = err instanceof MexError ? err.errorCode : iqErrorCode(err)
    if (code === undefined) throw new GatewayError('CHANNEL_LIST_REFUSED_NO_CODE', { queryId })
    throw new GatewayError('CHANNEL_LIST_REFUSED', { queryId, platformCode: code })
  }
}
