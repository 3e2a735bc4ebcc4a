/**
 * @module http/schemas/proxy
 * The `proxy` field of POST /session (optional) and PUT /session/proxy (required): a proxy URL the gateway can use
 * (proxy/proxy-url.ts), then held to the operator's policy (proxy/proxy-policy.ts: allow-list, private addresses,
 * with a DNS look-up of a host name). Answers the spec's 400 lines (`proxy must be a socks5, ...`) and the policy's
 * 400s; returns the URL in full, as it is stored.
 */
import { z } from 'zod'
import { validationFailed } from '../../protocol/errors.js'
import { RULE } from './validation-lines.js'
import { threadProxyPolicy, type ProxyPolicySettings } from '../../proxy/proxy-policy.js'
import { parseProxyUrl } from '../../proxy/proxy-url.js'
import { bodyObject } from './body.js'
import { optionalString, requiredString } from './fields.js'
import { check } from './format.js'

const isProxyUrl = (value: string) => parseProxyUrl(value) !== undefined

const optionalProxy = z.object({
  proxy: optionalString().refine(v => v === undefined || isProxyUrl(v), RULE.PROXY_URL),
})
const requiredProxy = z.object({ proxy: requiredString().refine(isProxyUrl, RULE.PROXY_URL) })

/** The checked proxy of a body, or undefined when `optional` and the body names none (or has no body at all). */
export async function parseProxyBody(
  rawBody: unknown,
  settings: ProxyPolicySettings,
  required: boolean,
): Promise<string | undefined> {
  const body = bodyObject(rawBody)
  if (!body.ok) throw validationFailed(body.messages)
  const checked = check(required ? requiredProxy : optionalProxy, body.value)
  if (!checked.ok) throw validationFailed(checked.messages)
  if (checked.value.proxy === undefined) return undefined
  const url = parseProxyUrl(checked.value.proxy)!
  await threadProxyPolicy(settings).check(url)
  return url.href
}
