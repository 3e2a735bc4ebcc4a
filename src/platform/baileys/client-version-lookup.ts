/**
 * @module platform/baileys/client-version-lookup
 * Looks up the platform's current web client version (platform/client-version-keeper.ts decides when). The
 * platform's web client publishes its build in its service worker script, as `"client_revision": <build>`, and the
 * version is `2.3000.<build>` (how Baileys' own `fetchLatestWaWebVersion` reads it, with no bound on time or size).
 * Against the sandbox, its GET /trust names the version (`clientVersion`), as it names the socket URL.
 *
 * The answer is untrusted: the fetch has a time-out and a size cap (redirects included), and the version must be
 * three plain integers of at most 10 digits.
 */
import { parseClientVersion, type ClientVersion } from '../client-version.js'

/** The platform web client's service worker, which names its build. */
export const WEB_CLIENT_SERVICE_WORKER_URL = 'https://web.whatsapp.com/sw.js'

export interface LookupBounds {
  timeoutMs: number
  /** The body is read up to this many bytes; a longer one fails the lookup. */
  maxBytes: number
}

export const LOOKUP_BOUNDS: LookupBounds = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 }

/** The major and minor version the web client's builds are published under. */
const WEB_CLIENT_LINE = [2, 3000] as const
/** `"client_revision":123`, also JSON-escaped inside a string (`\"client_revision\":123`). */
const CLIENT_REVISION = /\\?"client_revision\\?"\s*:\s*(\d{1,10})\b/

/** The version a service worker script names; undefined when it names none. */
export function versionOfServiceWorker(script: string): ClientVersion | undefined {
  const match = CLIENT_REVISION.exec(script)
  if (!match) return undefined
  const build = Number(match[1])
  return build > 0 ? [WEB_CLIENT_LINE[0], WEB_CLIENT_LINE[1], build] : undefined
}

/** GET `url`'s body as text, within `bounds`; throws on a non-2xx answer, a time-out or a body over the cap. */
export async function fetchBoundedText(url: string, bounds: LookupBounds, headers: Record<string, string> = {}) {
  const signal = AbortSignal.timeout(bounds.timeoutMs)
  const res = await fetch(url, { signal, headers })
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined)
    throw new Error(`${url} answered ${res.status}`)
  }
  const declared = Number(res.headers.get('content-length') ?? Number.NaN)
  if (declared > bounds.maxBytes) {
    await res.body.cancel().catch(() => undefined)
    throw new Error(`${url} answered more than ${bounds.maxBytes} bytes`)
  }
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > bounds.maxBytes) throw new Error(`${url} answered more than ${bounds.maxBytes} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The platform web client's current version, from its service worker (or `url`: a test serves one on loopback). */
export async function lookupWebClientVersion(
  url = WEB_CLIENT_SERVICE_WORKER_URL,
  bounds = LOOKUP_BOUNDS,
): Promise<ClientVersion> {
  // the headers a browser sends for a script it loads itself; without them the script is not served
  const script = await fetchBoundedText(url, bounds, {
    'sec-fetch-site': 'none',
    'user-agent':
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  })
  const version = versionOfServiceWorker(script)
  if (!version) throw new Error(`${url} names no client revision`)
  return version
}

/** The sandbox's current version, from its GET /trust (`clientVersion`). */
export async function lookupSandboxClientVersion(sandboxUrl: string, bounds = LOOKUP_BOUNDS): Promise<ClientVersion> {
  const url = `${sandboxUrl.replace(/\/+$/, '')}/trust`
  let body: unknown
  try {
    body = JSON.parse(await fetchBoundedText(url, bounds))
  } catch (err) {
    throw new Error(`sandbox trust at ${url} unreadable: ${(err as Error).message}`)
  }
  const text = (body as { clientVersion?: unknown } | null)?.clientVersion
  const version = typeof text === 'string' ? parseClientVersion(text) : undefined
  if (!version) throw new Error(`sandbox trust at ${url} names no client version a.b.c`)
  return version
}

/** The PlatformModule hook: the sandbox's version when the gateway runs against one, else the platform's. */
export const lookupClientVersion = (sandboxUrl: string | undefined): Promise<ClientVersion> =>
  sandboxUrl === undefined ? lookupWebClientVersion() : lookupSandboxClientVersion(sandboxUrl)
