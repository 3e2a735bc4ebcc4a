/**
 * @module http/endpoints/session-proxy/openapi
 * GET, PUT and DELETE /session/proxy in the OpenAPI document, with the proxy field POST /session takes too.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import type { SessionProxy } from '../../../protocol/commands.js'
import { authenticated, jsonRequestBody } from '../../openapi/operations.js'
import { shapeOf } from '../../openapi/response-schemas.js'
import { AUTHENTICATED, AUTHENTICATED_WITH_BODY, ok, responses } from '../../openapi/responses.js'
import type { ProxyChangeBody } from './route.js'

/** The `proxy` of POST /session and PUT /session/proxy. */
export const proxyField = () =>
  z
    .string()
    .describe(
      '`socks5://`, `socks5h://` (host names resolved at the proxy), `http://` or `https://` (CONNECT tunnels), ' +
        'with `user:password@` when the proxy wants them; no path. A host on a private or loopback address is ' +
        'refused unless the gateway allows it (SESSION_PROXY_ALLOW_PRIVATE), and so is one off the list the ' +
        'operator may set (SESSION_PROXY_ALLOWED_HOSTS). A secret: stored sealed, answered without its password',
    )
    .meta({ example: 'socks5://alice:s3cret@proxy.example:1080' })

const sessionProxyFields = {
  proxy: z
    .string()
    .nullable()
    .describe(
      "The session's own proxy without its password (`socks5://alice:***@proxy.example:1080`); null when the " +
        "session has none (the operator's default, whose address is not shown, or a direct connection)",
    ),
  source: z
    .enum(['session', 'default', 'none'])
    .describe("Whose proxy the next connection takes: the session's own, the operator's default, or none (direct)"),
}

const sessionProxySchema = shapeOf<SessionProxy>()(z.strictObject(sessionProxyFields).meta({ id: 'SessionProxy' }))

const proxyChangeSchema = shapeOf<ProxyChangeBody>()(
  z
    .strictObject({
      ...sessionProxyFields,
      takesEffect: z
        .literal('next-connection')
        .describe('The connection open now is kept; the next one (reconnect, reset, restart) goes through the proxy'),
    })
    .meta({ id: 'SessionProxyChange' }),
)

const CHANGE_NOTE =
  "Applies to the session's next connection to the platform (its next reconnect, a reset, a restart); the one " +
  'open now is kept.'

export const sessionProxyPaths: ZodOpenApiPathsObject = {
  '/session/proxy': {
    get: authenticated({
      operationId: 'getSessionProxy',
      tags: ['Session'],
      summary: "The session's proxy (not in the spec)",
      description: 'Which proxy the next connection to the platform goes through; the password is never shown.',
      responses: responses(ok(sessionProxySchema, "The session's proxy"), ...AUTHENTICATED),
    }),
    put: authenticated({
      operationId: 'setSessionProxy',
      tags: ['Session'],
      summary: "Set the session's proxy (not in the spec)",
      description: `The session's connection to the platform and its media uploads go through this proxy. ${CHANGE_NOTE}`,
      requestBody: jsonRequestBody(z.object({ proxy: proxyField() })),
      responses: responses(ok(proxyChangeSchema, 'The proxy now set'), ...AUTHENTICATED_WITH_BODY),
    }),
    delete: authenticated({
      operationId: 'deleteSessionProxy',
      tags: ['Session'],
      summary: "Remove the session's proxy (not in the spec)",
      description: `The operator's default proxy applies again, or none. ${CHANGE_NOTE}`,
      responses: responses(ok(proxyChangeSchema, 'What applies now'), ...AUTHENTICATED),
    }),
  },
}
