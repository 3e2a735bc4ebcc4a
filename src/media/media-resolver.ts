/**
 * @module media/media-resolver
 * How the media downloader turns a URL's host name into addresses: c-ares (`dns.Resolver`), not `dns.lookup`.
 * `dns.lookup` is getaddrinfo on libuv's thread pool (4 threads), which file I/O and sharp share: a tenant whose
 * media URLs point at a nameserver that never answers would hold those threads and stall every session's temp-file
 * writes. c-ares queries on the event loop, with its own time-out (MEDIA_DNS_TIMEOUT_MS) and a cap on look-ups in
 * flight per thread (MEDIA_DNS_MAX_IN_FLIGHT; the rest wait their turn within the same time-out). A session's
 * commands run one at a time, so one session has at most one download, and so one look-up, in flight.
 *
 * Not read: /etc/hosts (c-ares' queries go to the DNS servers only); `localhost` and `*.localhost` are loopback
 * without a query (RFC 6761), and IP literals need no look-up at all. MEDIA_DNS_SERVERS replaces the system's
 * servers (/etc/resolv.conf).
 */
import dns from 'node:dns'
import net from 'node:net'

/** Resolves a host name to every address it has (c-ares by default, below; tests inject a stub DNS). */
export type Resolve = (hostname: string, family: number) => Promise<dns.LookupAddress[]>

export interface MediaResolverOptions {
  /** `host` or `host:port` entries; empty = the system's servers. */
  servers?: readonly string[]
  timeoutMs: number
  maxInFlight: number
}

const LOOPBACK: dns.LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
]

const isLocalhost = (host: string): boolean => {
  const h = host.toLowerCase().replace(/\.$/, '')
  return h === 'localhost' || h.endsWith('.localhost')
}

/** The look-up failed: the message names the host and why, for `error parser file from url <message>`. */
export class DnsLookupError extends Error {
  constructor(
    host: string,
    readonly code: string,
    detail: string,
  ) {
    super(`dns lookup of ${host} ${detail}`)
    this.name = 'DnsLookupError'
  }
}

/** A FIFO of waiters for a place among `max` look-ups in flight. */
class Slots {
  #free: number
  readonly #waiting: Array<() => void> = []
  constructor(max: number) {
    this.#free = max
  }

  async take(signal: AbortSignal): Promise<() => void> {
    if (this.#free > 0) {
      this.#free--
    } else {
      await new Promise<void>((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener('abort', onAbort)
          resolve()
        }
        const onAbort = () => {
          const i = this.#waiting.indexOf(grant)
          if (i >= 0) this.#waiting.splice(i, 1)
          reject(signal.reason)
        }
        this.#waiting.push(grant)
        signal.addEventListener('abort', onAbort, { once: true })
      })
    }
    let given = false
    return () => {
      if (given) return
      given = true
      const next = this.#waiting.shift()
      if (next) next()
      else this.#free++
    }
  }
}

export function createMediaResolver({ servers = [], timeoutMs, maxInFlight }: MediaResolverOptions): Resolve {
  // tries: 1 so that the time-out is ours to state; c-ares would otherwise retry with growing waits.
  const resolver = new dns.promises.Resolver({ timeout: timeoutMs, tries: 1 })
  if (servers.length > 0) resolver.setServers([...servers])
  const slots = new Slots(maxInFlight)

  const query = async (host: string, family: 4 | 6): Promise<dns.LookupAddress[]> => {
    const list = family === 4 ? await resolver.resolve4(host) : await resolver.resolve6(host)
    return list.map(address => ({ address, family }))
  }

  return async (hostname, family) => {
    const ip = net.isIP(hostname)
    if (ip !== 0) return [{ address: hostname, family: ip }]
    if (isLocalhost(hostname)) return LOOPBACK.filter(a => family === 0 || a.family === family)
    const deadline = AbortSignal.timeout(timeoutMs)
    let release: (() => void) | undefined
    try {
      release = await slots.take(deadline)
      const families: Array<4 | 6> = family === 4 || family === 6 ? [family] : [4, 6]
      const timedOut = new Promise<never>((_, reject) => {
        if (deadline.aborted) reject(deadline.reason)
        deadline.addEventListener('abort', () => reject(deadline.reason), { once: true })
      })
      const answers = await Promise.race([Promise.allSettled(families.map(f => query(hostname, f))), timedOut])
      const found = answers.flatMap(a => (a.status === 'fulfilled' ? a.value : []))
      if (found.length > 0) return found
      const codes = answers.map(a => (a.status === 'rejected' ? (a.reason as NodeJS.ErrnoException).code : 'ENODATA'))
      if (codes.includes('ETIMEOUT')) throw new DnsLookupError(hostname, 'ETIMEOUT', `timed out after ${timeoutMs} ms`)
      const code = codes.find(c => c !== 'ENODATA') ?? 'ENOTFOUND'
      throw new DnsLookupError(hostname, code === 'ENODATA' ? 'ENOTFOUND' : (code ?? 'ENOTFOUND'), `failed (${code})`)
    } catch (err) {
      if (deadline.aborted && !(err instanceof DnsLookupError)) {
        throw new DnsLookupError(hostname, 'ETIMEOUT', `timed out after ${timeoutMs} ms`)
      }
      throw err
    } finally {
      release?.()
    }
  }
}
