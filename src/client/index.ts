/**
 * @module client
 * A typed client for the gateway's HTTP API: openapi-fetch over the types openapi-typescript generated from the
 * gateway's own OpenAPI document (./schema.ts, `npm run client:generate`). Paths, parameters, request bodies and
 * response bodies are all checked by the compiler. Every call resolves to `{ data, error, response }`: `data` on a
 * 2xx, `error` (the `{ statusCode, message }` body) otherwise. `waitForSession` (./wait-for-session.ts) follows a
 * session until it reaches a state, with the waiting GET /session instead of polling.
 *
 * @example
 * const gateway = createGatewayClient('http://127.0.0.1:3000')
 * const { data: session } = await gateway.POST('/session')
 * await gateway.POST('/message', withSession(session!, { body: { phone: '15550000002', type: 'text', text: 'hi' } }))
 * const { data: group } = await gateway.GET('/group/{groupId}',
 *   withSession(session!, { params: { path: { groupId: '120363000000000001@g.us' } } }))
 * await waitForSession(gateway, session!, s => s.isConnected) // resolves the moment the phone has paired it
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { components, paths } from './schema.js'

export type { components, paths } from './schema.js'
export { SessionWaitError, waitForSession, type Session, type WaitForSessionOptions } from './wait-for-session.js'

export type GatewayClient = Client<paths>

/** What POST /session returns; the two values every other endpoint needs as headers. */
export type SessionCredentials = components['schemas']['CreatedSession']

export function createGatewayClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): GatewayClient {
  return createClient<paths>({ ...options, baseUrl })
}

/** The `id` and `session-id` headers of every endpoint but POST /session. */
export const sessionHeaders = (session: SessionCredentials) => ({ id: session.id, 'session-id': session.sessionId })

type SessionHeaders = ReturnType<typeof sessionHeaders>

/**
 * Adds the session headers to a call's options, keeping its other parameters and body. `const` keeps the literal
 * types of `init` (`type: 'text'`), so the call still checks the body against the operation's schema.
 */
// biome-ignore lint/complexity/noBannedTypes: `{}` is "no params" in openapi-fetch's init types
export function withSession<const Init extends object = {}>(session: SessionCredentials, init?: Init) {
  const params = (init as { params?: object } | undefined)?.params
  return { ...init, params: { ...params, header: sessionHeaders(session) } } as Omit<Init, 'params'> & {
    // biome-ignore lint/complexity/noBannedTypes: `{}` is "no params" in openapi-fetch's init types
    params: (Init extends { params: infer P } ? P : {}) & { header: SessionHeaders }
  }
}
