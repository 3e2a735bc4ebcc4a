/**
 * The operator's policy over tenants' proxies (src/proxy/proxy-policy.ts): a loopback or private host refused in
 * every spelling and after DNS unless SESSION_PROXY_ALLOW_PRIVATE, the allow-list in each of its forms, a name that
 * does not resolve refused exactly as one that resolves to a private address (no DNS oracle for anyone who may
 * create a session), and the look-up a connection to the proxy resolves it with. Only
 * loopback addresses are named: the stub resolver answers for made-up names.
 */
import type dns from 'node:dns'
import { describe, expect, it } from 'vitest'
import { isAllowedHostsEntry, proxyPolicy, type ProxyPolicySettings } from '../../../src/proxy/proxy-policy.js'
import { parseProxyUrl } from '../../../src/proxy/proxy-url.js'

const ANSWERS: Record<string, string[]> = {
  'loopback.test': ['127.0.0.7'],
  'mixed.test': ['::1', '127.0.0.1'],
}
const resolve = async (host: string): Promise<dns.LookupAddress[]> => {
  const answers = ANSWERS[host]
  if (!answers) throw new Error(`dns lookup of ${host} failed (ENOTFOUND)`)
  return answers.map(address => ({ address, family: address.includes(':') ? 6 : 4 }))
}

const settings = (patch: Partial<ProxyPolicySettings> = {}): ProxyPolicySettings => ({
  SESSION_PROXY_ALLOW_PRIVATE: false,
  SESSION_PROXY_ALLOWED_HOSTS: [],
  MEDIA_DNS_SERVERS: [],
  MEDIA_DNS_TIMEOUT_MS: 1000,
  MEDIA_DNS_MAX_IN_FLIGHT: 4,
  ...patch,
})
const url = (text: string) => parseProxyUrl(text)!
/** The promise rejects with a GatewayError of `code` and exactly `message`. */
async function expectGatewayError(work: Promise<unknown>, code: string, message: string): Promise<void> {
  await expect(work).rejects.toMatchObject({ name: 'GatewayError', code, message })
}

const PRIVATE = 'proxy leads to a private or local address'
const NAME_REFUSED = 'proxy host name does not resolve to a public address'
const NOT_LISTED = "proxy host is not on this gateway's list of allowed proxy hosts"

describe('proxy policy', () => {
  it('refuses a loopback proxy in every spelling', async () => {
    const policy = proxyPolicy(settings(), resolve)
    for (const text of [
      'socks5://127.0.0.1:1080',
      'socks5://127.1:1080',
      'http://2130706433:3128',
      'http://0x7f.0.0.1:3128',
      'http://[::1]:3128',
      'http://[::ffff:127.0.0.1]:3128',
      'socks5h://localhost:1080',
      'socks5h://LOCALHOST.:1080',
    ]) {
      await expectGatewayError(policy.check(url(text)), 'PRIVATE_ADDRESS', PRIVATE)
    }
    expect(() => policy.checkHost(url('socks5://127.0.0.1:1080'))).toThrow(PRIVATE)
  })

  it('allows them with SESSION_PROXY_ALLOW_PRIVATE', async () => {
    const policy = proxyPolicy(settings({ SESSION_PROXY_ALLOW_PRIVATE: true }), resolve)
    for (const text of ['socks5://127.0.0.1:1080', 'http://loopback.test:3128', 'http://[::1]:3128'])
      await expect(policy.check(url(text)), text).resolves.toBeUndefined()
  })

  it('holds every proxy to the allow-list: names, *.domain, addresses and subnets; none allows nothing', async () => {
    const policy = proxyPolicy(
      settings({
        SESSION_PROXY_ALLOW_PRIVATE: true,
        SESSION_PROXY_ALLOWED_HOSTS: ['loopback.test', '*.pool.test', '127.0.0.9', '127.0.1.0/24'],
      }),
      resolve,
    )
    for (const text of ['http://loopback.test:1', 'http://127.0.0.9:1', 'http://127.0.1.200:1'])
      await expect(policy.check(url(text)), text).resolves.toBeUndefined()
    for (const text of ['http://a.pool.test:1', 'http://b.a.pool.test:1'])
      expect(() => policy.checkHost(url(text))).not.toThrow()
    for (const text of ['http://pool.test:1', 'http://127.0.0.1:1', 'http://mixed.test:1', 'http://evilpool.test:1'])
      await expectGatewayError(policy.check(url(text)), 'PROXY_HOST_NOT_ALLOWED', NOT_LISTED)
    const none = proxyPolicy(
      settings({ SESSION_PROXY_ALLOW_PRIVATE: true, SESSION_PROXY_ALLOWED_HOSTS: ['none'] }),
      resolve,
    )
    await expectGatewayError(none.check(url('http://loopback.test:1')), 'PROXY_HOST_NOT_ALLOWED', NOT_LISTED)
  })

  it('answers a name that does not resolve exactly as one that resolves to a private address; the why is for the log', async () => {
    const policy = proxyPolicy(settings(), resolve)
    const refusal = async (text: string) => {
      const err = await policy.check(url(text)).then(
        () => undefined,
        (e: unknown) => e as { code: string; status: number; message: string; cause: unknown },
      )
      return { answer: { code: err?.code, status: err?.status, message: err?.message }, cause: err?.cause }
    }
    const unresolved = await refusal('socks5://nowhere.test:1080')
    const loopback = await refusal('http://loopback.test:3128')
    const mixed = await refusal('http://mixed.test:3128')
    expect(unresolved.answer).toEqual({ code: 'PROXY_NAME_REFUSED', status: 400, message: NAME_REFUSED })
    expect(loopback.answer).toEqual(unresolved.answer)
    expect(mixed.answer).toEqual(unresolved.answer)
    expect(unresolved.cause).toBe('dns lookup of nowhere.test failed (ENOTFOUND)')
    expect(loopback.cause).toBe('loopback.test resolves to a private address')
  })

  it('the look-up a connection uses judges the answer it connects to', async () => {
    const lookup = proxyPolicy(settings(), resolve).lookup
    const err = await new Promise<Error | null>(done => lookup('loopback.test', {}, e => done(e)))
    expect(err?.message).toContain('private address')
    const allowed = proxyPolicy(settings({ SESSION_PROXY_ALLOW_PRIVATE: true }), resolve).lookup
    const address = await new Promise(done => allowed('loopback.test', {}, (_e, a) => done(a)))
    expect(address).toBe('127.0.0.7')
  })

  it('knows the allow-list entries it can read', () => {
    for (const entry of ['proxy.test', '*.proxy.test', '127.0.0.1', '::1', '127.0.0.0/8', 'none'])
      expect(isAllowedHostsEntry(entry), entry).toBe(true)
    for (const entry of ['127.0.0.0/33', 'proxy test', 'http://proxy.test', '*.', 'a/b'])
      expect(isAllowedHostsEntry(entry), entry).toBe(false)
  })
})
