/**
 * @module test/unit/media/address-guard
 * The SSRF guard of the media downloader: every refused address class, every IPv4 spelling and IPv6 form that
 * hides one, host names checked on the resolved address (a stub DNS), every redirect hop, and DNS rebinding (the
 * address checked is the address connected to). Two loopback servers play the parts: 127.0.0.1 is "the internet"
 * (the test guard lets it through) and 127.0.0.2 is "the internal service" that must never see a request.
 */
import { readdir } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createAddressGuard } from '../../../src/media/address-guard.js'
import { isPrivateAddress } from '../../../src/media/private-address.js'
import { prepareSendMedia } from '../../../src/media/send-media.js'
import { GatewayError } from '../../../src/protocol/errors.js'
import { defaultFfmpeg } from '../../support/ffmpeg.js'
import { INTERNAL, outcome, PUBLIC, REFUSED, ssrfWorld, stubDns, testGuard, world } from '../../support/ssrf-world.js'

ssrfWorld()

describe('private address classes', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '192.0.0.8',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'fec0::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    '2002:c0a8:101::',
    '2001:0:4136:e378::1',
    '2001:db8::1',
    // IPv4-translated ::ffff:0:0:0/96 (SIIT), whatever IPv4 address it carries
    '::ffff:0:7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:a9fe:a9fe',
    '::ffff:0:808:808',
    '::ffff:0:0:0',
    '0:0:0:0:ffff:0:ffff:ffff',
  ])('%s is refused', ip => expect(isPrivateAddress(ip)).toBe(true))

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.0.1',
    '11.0.0.1',
    '2001:4860:4860::8888',
    '2a00:1450::1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is allowed', ip => expect(isPrivateAddress(ip)).toBe(false))

  it('host names are not addresses (the guard resolves them first)', () => {
    expect(isPrivateAddress('localhost')).toBe(false)
  })
})

describe('URL hosts refused before any connection', () => {
  // The real policy and the system resolver: none of these may reach a lookup or a socket.
  it.each([
    'http://127.0.0.1:PORT/file.bin',
    'http://2130706433:PORT/file.bin',
    'http://0x7f.1:PORT/file.bin',
    'http://0177.0.0.1:PORT/file.bin',
    'http://127.1:PORT/file.bin',
    'http://0x7f000001:PORT/file.bin',
    'http://0:PORT/file.bin',
    'http://0.0.0.0:PORT/file.bin',
    'http://localhost:PORT/file.bin',
    'http://LOCALHOST.:PORT/file.bin',
    'http://[::1]:PORT/file.bin',
    'http://[::ffff:127.0.0.1]:PORT/file.bin',
    'http://[::ffff:7f00:1]:PORT/file.bin',
    'http://[64:ff9b::7f00:1]:PORT/file.bin',
    'http://127.0.0.2:PORT/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'https://10.0.0.1/x',
    'http://[::ffff:0:7f00:1]:PORT/file.bin',
    'http://[::ffff:0:127.0.0.1]:PORT/file.bin',
  ])('%s', async template => {
    const guard = createAddressGuard({
      resolve: async () => {
        throw new Error('no lookup expected')
      },
    })
    expect(await outcome(template.replace('PORT', String(world.port)), { ...world.base, guard })).toBe(REFUSED)
    expect(world.hits).toEqual({ public: 0, internal: 0 })
    expect(await readdir(world.tempDir)).toEqual([])
  })
})

describe('host names are judged by what they resolve to', () => {
  it('a name resolving to the internal service is refused without contacting it', async () => {
    const dns = stubDns({ 'media.example': [[INTERNAL]] })
    expect(
      await outcome(`http://media.example:${world.port}/file.bin`, { ...world.base, guard: testGuard(dns.resolve) }),
    ).toBe(REFUSED)
    expect(world.hits.internal).toBe(0)
  })

  it('the metadata address, IPv4-mapped and IPv4-translated answers are refused by the real policy', async () => {
    for (const answer of ['169.254.169.254', '::ffff:127.0.0.1', '::1', '10.9.8.7', 'fd00::5', '::ffff:0:a9fe:a9fe']) {
      const dns = stubDns({ 'cloud.example': [[answer]] })
      const guard = createAddressGuard({ resolve: dns.resolve })
      expect(await outcome('http://cloud.example/latest/meta-data/', { ...world.base, guard }), answer).toBe(REFUSED)
    }
  })

  it('one private answer among public ones is enough to refuse', async () => {
    const dns = stubDns({ 'mixed.example': [[PUBLIC, INTERNAL]] })
    expect(
      await outcome(`http://mixed.example:${world.port}/file.bin`, { ...world.base, guard: testGuard(dns.resolve) }),
    ).toBe(REFUSED)
    expect(world.hits).toEqual({ public: 0, internal: 0 })
  })

  it('https URLs go through the same resolver', async () => {
    const dns = stubDns({ 'secure.example': [[INTERNAL]] })
    expect(
      await outcome(`https://secure.example:${world.port}/x`, { ...world.base, guard: testGuard(dns.resolve) }),
    ).toBe(REFUSED)
    expect(dns.queries).toEqual(['secure.example'])
  })

  it('a public answer is fetched, and the guard can be switched off (MEDIA_ALLOW_PRIVATE_URLS)', async () => {
    const dns = stubDns({ 'media.example': [[PUBLIC]], 'intranet.example': [[INTERNAL]] })
    expect(
      await outcome(`http://media.example:${world.port}/file.bin`, { ...world.base, guard: testGuard(dns.resolve) }),
    ).toBe('downloaded')
    expect(await outcome(`http://${INTERNAL}:${world.port}/x`, { ...world.base, blockPrivate: false })).toBe(
      'downloaded',
    )
    expect(world.hits).toEqual({ public: 1, internal: 1 })
  })
})

describe('redirects', () => {
  const jump = (to: string) => `http://${PUBLIC}:${world.port}/jump?to=${encodeURIComponent(to)}`

  it('every hop is checked: literal, spelled and named private targets are refused', async () => {
    const dns = stubDns({ 'intranet.example': [[INTERNAL]] })
    const guard = testGuard(dns.resolve)
    for (const target of [
      `http://${INTERNAL}:${world.port}/x`,
      `http://2130706434:${world.port}/x`,
      `http://[::ffff:7f00:2]:${world.port}/x`,
      `http://intranet.example:${world.port}/x`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      expect(await outcome(jump(target), { ...world.base, guard }), target).toBe(REFUSED)
    }
    expect(world.hits.internal).toBe(0)
  })

  it('a chain of two public redirects ending inside is refused at its last hop', async () => {
    const dns = stubDns({ 'intranet.example': [[INTERNAL]] })
    const inner = jump(jump(`http://intranet.example:${world.port}/x`))
    expect(await outcome(inner, { ...world.base, guard: testGuard(dns.resolve) })).toBe(REFUSED)
    expect(world.hits).toEqual({ public: 2, internal: 0 })
  })

  it('only http and https are followed', async () => {
    expect(await outcome(jump('file:///etc/passwd'), { ...world.base, guard: testGuard(stubDns({}).resolve) })).toBe(
      '500 error parser file from url unsupported protocol file:',
    )
  })
})

describe('DNS rebinding', () => {
  it('the address checked is the address connected to: one lookup per connection, never a second one', async () => {
    // First answer public, every later answer internal: a check-then-connect downloader would connect inside.
    const dns = stubDns({ 'rebind.example': [[PUBLIC], [INTERNAL]] })
    const guard = testGuard(dns.resolve)
    expect(await outcome(`http://rebind.example:${world.port}/file.bin`, { ...world.base, guard })).toBe('downloaded')
    expect(dns.queries).toEqual(['rebind.example'])
    expect(world.hits).toEqual({ public: 1, internal: 0 })
    // the next connection to the same name asks again and is refused
    expect(await outcome(`http://rebind.example:${world.port}/file.bin`, { ...world.base, guard })).toBe(REFUSED)
    expect(world.hits.internal).toBe(0)
  })

  it('a redirect back to the same name is resolved and checked again', async () => {
    const dns = stubDns({ 'rebind.example': [[PUBLIC], [INTERNAL]] })
    const url = `http://rebind.example:${world.port}/jump?to=${encodeURIComponent(`http://rebind.example:${world.port}/file.bin`)}`
    expect(await outcome(url, { ...world.base, guard: testGuard(dns.resolve) })).toBe(REFUSED)
    expect(dns.queries).toEqual(['rebind.example', 'rebind.example'])
    expect(world.hits).toEqual({ public: 1, internal: 0 })
  })
})

describe('thumbnail URLs', () => {
  it('a private thumbnail is the same 400 naming the field, not a silent fallback to a default thumbnail', async () => {
    const dns = stubDns({ 'media.example': [[PUBLIC]], 'intranet.example': [[INTERNAL]] })
    const download = { ...world.base, guard: testGuard(dns.resolve) }
    const message = {
      type: 'video' as const,
      video: {
        url: `http://media.example:${world.port}/file.bin`,
        mimetype: 'video/mp4',
        duration: 1,
        thumbnail: `http://intranet.example:${world.port}/thumb.jpg`,
      },
    }
    const err = await prepareSendMedia(message, {
      download,
      ffmpeg: defaultFfmpeg(),
      maxPixels: 100_000_000,
      logger: { warn: () => {} },
    }).then(
      () => undefined,
      e => e,
    )
    expect(err).toBeInstanceOf(GatewayError)
    expect((err as GatewayError).status).toBe(400)
    expect((err as GatewayError).message).toBe('video.thumbnail leads to a private or local address')
    expect(world.hits.internal).toBe(0)
    expect(await readdir(world.tempDir)).toEqual([])
  })
})
