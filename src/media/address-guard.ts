/**
 * @module media/address-guard
 * The SSRF guard of the media downloader. Two doors lead to an address and both are watched:
 *   - an IP literal in the URL (`http://10.0.0.1/`, `http://2130706433/`, `http://0x7f.1/`, `http://[::ffff:7f00:1]/`):
 *     WHATWG URL parsing already turns every IPv4 spelling into dotted form, and Node connects to a literal without
 *     any lookup, so `refusesHost` checks it before the request is made;
 *   - a host name: the guard's `lookup` is the resolver the socket itself uses, so the answer that is checked is the
 *     very address connected to. A DNS server that answers "public" to a first query and "private" to a second
 *     (rebinding) gets no second query to answer. Every answer must pass, not just the first.
 * The downloader calls both on every redirect hop.
 */
import type dns from 'node:dns'
import type net from 'node:net'
import { createMediaResolver, type Resolve } from './media-resolver.js'
import { isPrivateAddress } from './private-address.js'

/** Thrown when a URL's host is, or resolves to, a refused address. The message names the host, for the log. */
export class PrivateAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} resolves to a private address`)
    this.name = 'PrivateAddressError'
  }
}

export type { Resolve }

export interface AddressGuard {
  /** True when the URL host (bracket-free) must be refused before any connection: `localhost` or a refused IP. */
  refusesHost(host: string): boolean
  /** A `lookup` for http(s).request that fails with PrivateAddressError on any refused answer. */
  lookup: net.LookupFunction
  /** The same resolver with no judging, for when the guard is off (MEDIA_ALLOW_PRIVATE_URLS=true). */
  lookupAny: net.LookupFunction
}

export interface AddressGuardOptions {
  resolve?: Resolve
  /** Which addresses are refused; default `isPrivateAddress`. */
  isRefused?: (ip: string) => boolean
}

/** The default: c-ares with the system's servers (media-resolver.ts says why not getaddrinfo). */
let defaultResolve: Resolve | undefined
const systemResolve: Resolve = (hostname, family) =>
  (defaultResolve ??= createMediaResolver({ timeoutMs: 5_000, maxInFlight: 64 }))(hostname, family)

type AllCallback = (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void

export function createAddressGuard(options: AddressGuardOptions = {}): AddressGuard {
  const resolve = options.resolve ?? systemResolve
  const isRefused = options.isRefused ?? isPrivateAddress
  const lookupJudging =
    (refuses: (ip: string) => boolean): net.LookupFunction =>
    (hostname, lookupOptions, callback) => {
      const wantsAll = (lookupOptions as dns.LookupOptions).all === true
      const family = Number((lookupOptions as dns.LookupOptions).family ?? 0)
      resolve(hostname, family === 4 || family === 6 ? family : 0)
        .then(list => {
          if (list.length === 0)
            throw Object.assign(new Error(`dns lookup of ${hostname} failed (ENOTFOUND)`), { code: 'ENOTFOUND' })
          if (list.some(a => refuses(a.address))) throw new PrivateAddressError(hostname)
          if (wantsAll) (callback as unknown as AllCallback)(null, list)
          else callback(null, list[0]!.address, list[0]!.family)
        })
        .catch((err: NodeJS.ErrnoException) => callback(err, '', 4))
    }
  return {
    refusesHost: host => host.toLowerCase().replace(/\.$/, '') === 'localhost' || isRefused(host),
    lookup: lookupJudging(isRefused),
    lookupAny: lookupJudging(() => false),
  }
}

/** The guard used when no test injects one: c-ares with the system's servers, every private/local range refused. */
export const defaultAddressGuard: AddressGuard = createAddressGuard()
