/**
 * @module media/private-address
 * Recognises addresses a media URL must not reach when SSRF protection is on: loopback, RFC 1918 / unique-local,
 * link-local, CGNAT, "this network", multicast and the IPv4-mapped forms of those. A resolver wrapper applies the
 * check to the address the socket really connects to, so a DNS answer cannot slip a private address past it.
 */
import dns from 'node:dns'
import net from 'node:net'

const V4_BLOCKS: Array<[string, number]> = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
]

const v4ToInt = (ip: string): number => ip.split('.').reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0

function isPrivateV4(ip: string): boolean {
  const value = v4ToInt(ip)
  return V4_BLOCKS.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0
    return (value & mask) === (v4ToInt(base) & mask)
  })
}

function isPrivateV6(ip: string): boolean {
  const lower = ip.toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (mapped?.[1]) return isPrivateV4(mapped[1])
  if (lower === '::' || lower === '::1') return true
  const first = parseInt(lower.split(':')[0] || '0', 16)
  return (first & 0xfe00) === 0xfc00 /* fc00::/7 */ || (first & 0xffc0) === 0xfe80 /* fe80::/10 */ ||
    (first & 0xff00) === 0xff00 /* multicast */
}

/** True for an IP literal in a range that must not be fetched. Non-IP strings return false. */
export function isPrivateAddress(ip: string): boolean {
  const kind = net.isIP(ip)
  if (kind === 4) return isPrivateV4(ip)
  if (kind === 6) return isPrivateV6(ip)
  return false
}

/** Thrown by the guarded lookup; the downloader turns it into the client-facing message. */
export class PrivateAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} resolves to a private address`)
    this.name = 'PrivateAddressError'
  }
}

/** A `lookup` for http(s).request that refuses private answers (checked on the address actually used). */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 4)
    const list = addresses as dns.LookupAddress[]
    if (list.some(a => isPrivateAddress(a.address))) return callback(new PrivateAddressError(hostname), '', 4)
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list)
    const first = list[0]
    if (!first) return callback(new Error(`${hostname} has no address`), '', 4)
    callback(null, first.address, first.family)
  })
}
