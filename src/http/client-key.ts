/**
 * @module http/client-key
 * Who "one client" is for the per-client limits (POST /session's rate, unpaired sessions per client). An IPv4
 * client is its address. An IPv6 client is its /64: one subscriber or one host is handed a whole /64, so keying by
 * the full /128 would give it 2^64 budgets. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack
 * listener reports for IPv4 peers) is the IPv4 client. Behind a reverse proxy, `req.ip` is the proxy unless
 * TRUST_PROXY says which proxies to believe (docs/operating.md: Settings).
 *
 * @example
 * clientKey('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64', the same for 2001:db8:1:2:bbbb::7
 */
import net from 'node:net'

/** The eight 16-bit groups of an IPv6 address (no zone id), or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (!net.isIPv6(address)) return undefined
  let text = address
  // A trailing dotted quad (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) is the last two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1]
  if (quad) {
    const [a, b, c, d] = quad.split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, -quad.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const part = (s: string | undefined) => (s ? s.split(':').map(g => parseInt(g, 16)) : [])
  const left = part(head)
  const right = part(tail)
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length
  return [...left, ...new Array<number>(zeros).fill(0), ...right]
}

export function clientKey(ip: string | undefined): string {
  if (ip === undefined || ip === '') return 'unknown'
  const address = ip.split('%')[0]! // drop an IPv6 zone id (`fe80::1%eth0`)
  const groups = ipv6Groups(address)
  if (groups === undefined) return address // IPv4, or whatever the socket reported
  const mapped = groups.slice(0, 5).every(g => g === 0) && groups[5] === 0xffff
  if (mapped) return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`
  return `${groups
    .slice(0, 4)
    .map(g => g.toString(16))
    .join(':')}::/64`
}

/** Requests forwarded by another node of the cluster, with the client key that node saw (cluster-routing.ts). */
const forwardedClients = new WeakMap<object, string>()

/** Cluster mode: `req` came from a peer node (its token checked) on behalf of `key`. */
export function setForwardedClient(req: object, key: string): void {
  forwardedClients.set(req, key)
}

/** Whether `req` came from a peer node of the cluster (its signature checked). */
export const isForwardedRequest = (req: object): boolean => forwardedClients.has(req)

/** The client of a request: the one a peer node forwarded it for, or the address it came from. */
export function requestClientKey(req: { ip?: string | undefined }): string {
  return forwardedClients.get(req) ?? clientKey(req.ip)
}
