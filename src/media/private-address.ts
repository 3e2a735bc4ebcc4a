/**
 * @module media/private-address
 * Recognises the addresses a media URL must not reach while the SSRF guard is on: loopback, "this network",
 * RFC 1918 and unique-local, link-local (with the cloud metadata address 169.254.169.254), carrier-grade NAT,
 * documentation and benchmark nets, multicast and reserved space, in IPv4 and IPv6, and the IPv6 forms that carry an
 * IPv4 address inside (IPv4-mapped `::ffff:127.0.0.1` = `::ffff:7f00:1`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`):
 * those are judged by the IPv4 address they carry, so a public IPv4 behind NAT64 still passes. Teredo is refused
 * whole (its IPv4 part is obfuscated), and so is IPv4-translated `::ffff:0:0:0/96`: nothing public is addressed
 * that way, and a stateless translator on the path would carry `::ffff:0:7f00:1` to 127.0.0.1.
 *
 * Callers pass addresses, never host names: `address-guard.ts` resolves names and checks every answer.
 */
import net from 'node:net'

const V4_BLOCKS: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24], // IETF protocol assignments, documentation, 6to4 relay, benchmarking
  ['224.0.0.0', 4],
  ['240.0.0.0', 4], // multicast, reserved and broadcast
]

const V6_BLOCKS: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // unspecified, loopback ::1 and the deprecated IPv4-compatible form
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT, RFC 6052/7915): a translator may carry it to any IPv4 address
  ['100::', 64], // discard-only
  ['64:ff9b:1::', 48], // local-use NAT64
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10],
  ['fec0::', 10], // link-local, old site-local
  ['ff00::', 8], // multicast
]

const blocked = new net.BlockList()
for (const [base, bits] of V4_BLOCKS) blocked.addSubnet(base, bits, 'ipv4')
for (const [base, bits] of V6_BLOCKS) blocked.addSubnet(base, bits, 'ipv6')

/** The eight 16-bit groups of an IPv6 literal (zone id dropped, an embedded dotted IPv4 tail converted). */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0]!.toLowerCase()
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const parse = (part: string) => (part ? part.split(':').map(g => parseInt(g, 16)) : [])
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

const v4FromGroups = (high: number, low: number): string => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')

/** The IPv4 address carried inside a NAT64 or 6to4 IPv6 address, if it is one. */
function embeddedV4(groups: number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number]
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4FromGroups(g6, g7)
  if (g0 === 0x2002) return v4FromGroups(g1, g2)
  return undefined
}

/** True for an IP literal the media downloader must not connect to. Non-IP strings return false. */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.split('%')[0]!
  const kind = net.isIP(bare)
  if (kind === 4) return blocked.check(bare, 'ipv4')
  if (kind !== 6) return false
  // BlockList judges IPv4-mapped IPv6 (::ffff:a.b.c.d in either spelling) by the IPv4 rules itself.
  if (blocked.check(bare, 'ipv6')) return true
  const inner = embeddedV4(ipv6Groups(bare))
  return inner !== undefined && blocked.check(inner, 'ipv4')
}
