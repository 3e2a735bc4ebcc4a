/**
 * Media host names are resolved by c-ares against the configured servers (src/media/media-resolver.ts), not by
 * getaddrinfo on the shared thread pool: every A and AAAA answer is judged by the SSRF guard, a silent nameserver
 * costs a bounded time-out with a clear error, and look-ups in flight are capped.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createAddressGuard } from '../../../src/media/address-guard.js'
import { downloadToTemp } from '../../../src/media/download.js'
import { createMediaResolver, DnsLookupError } from '../../../src/media/media-resolver.js'
import { startDnsServer, type DnsServer } from '../../support/fakes/dns-server.js'

let dns: DnsServer | undefined
afterEach(async () => {
  await dns?.close()
  dns = undefined
})

const resolverOn = (server: DnsServer, timeoutMs = 1_000, maxInFlight = 8) =>
  createMediaResolver({ servers: [server.address], timeoutMs, maxInFlight })

describe('the media resolver', () => {
  it('asks the configured server for A and AAAA and returns both', async () => {
    dns = await startDnsServer({ 'media.test': { a: ['93.184.216.34'], aaaa: ['2606:2800:220:1::1'] } })
    const list = await resolverOn(dns)('media.test', 0)
    expect(list).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ])
    expect(dns.queries.sort()).toEqual(['media.test A', 'media.test AAAA'])
  })

  it('answers IP literals and localhost without a query', async () => {
    dns = await startDnsServer({})
    const resolve = resolverOn(dns)
    expect(await resolve('203.0.113.5', 0)).toEqual([{ address: '203.0.113.5', family: 4 }])
    expect(await resolve('localhost', 4)).toEqual([{ address: '127.0.0.1', family: 4 }])
    expect(dns.queries).toEqual([])
  })

  it('fails a silent nameserver after the time-out, with a message naming the host', async () => {
    dns = await startDnsServer({ 'slow.test': 'silent' })
    const err = await resolverOn(dns, 300)('slow.test', 0).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DnsLookupError)
    expect((err as Error).message).toBe('dns lookup of slow.test timed out after 300 ms')
  })

  it('says an unknown name is not found', async () => {
    dns = await startDnsServer({})
    const err = await resolverOn(dns)('nowhere.test', 0).catch((e: unknown) => e)
    expect((err as DnsLookupError).code).toBe('ENOTFOUND')
  })

  it('holds look-ups past the cap until one ends, and the queued ones keep to the same time-out', async () => {
    dns = await startDnsServer({ 'slow.test': 'silent', 'fast.test': { a: ['93.184.216.34'] } })
    const resolve = resolverOn(dns, 400, 1)
    const slow = resolve('slow.test', 4).catch((e: unknown) => e)
    // The one place is taken by the silent look-up: the next waits, and its own time-out runs while it waits.
    const queued = await resolve('fast.test', 4).catch((e: unknown) => e)
    expect((queued as Error).message).toBe('dns lookup of fast.test timed out after 400 ms')
    expect(dns.queries).toEqual(['slow.test A']) // fast.test never went out while the cap was full
    await slow
    expect(await resolve('fast.test', 4)).toEqual([{ address: '93.184.216.34', family: 4 }])
  })

  it('lets the SSRF guard judge every answer: a private AAAA beside a public A is refused', async () => {
    dns = await startDnsServer({ 'mixed.test': { a: ['93.184.216.34'], aaaa: ['fd00::1'] } })
    const guard = createAddressGuard({ resolve: resolverOn(dns) })
    const err = await downloadToTemp('http://mixed.test/x.png', {
      maxBytes: 1024,
      timeoutMs: 5_000,
      maxRedirects: 0,
      blockPrivate: true,
      guard,
      urlField: 'image.url',
    }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'PRIVATE_ADDRESS', message: 'image.url leads to a private or local address' })
  })
})
