/**
 * @module bench/drivers/flood
 * A hostile tenant for bench/fair-share.ts, in its own process (run at nice 19): keeps `concurrency` requests of one
 * kind in flight for `seconds`, starting the next as each answer comes, and prints one JSON line with the count of
 * answers by status (`error` for a request that got none).
 */
const spec = JSON.parse(process.argv[2] ?? '{}') as {
  url: string
  method: string
  headers: Record<string, string>
  body?: string
  concurrency: number
  seconds: number
}
const statuses: Record<string, number> = {}
const until = Date.now() + spec.seconds * 1000
const count = (key: string) => {
  statuses[key] = (statuses[key] ?? 0) + 1
}

await Promise.all(
  Array.from({ length: spec.concurrency }, async () => {
    while (Date.now() < until) {
      try {
        const res = await fetch(spec.url, {
          method: spec.method,
          headers: spec.headers,
          ...(spec.body === undefined ? {} : { body: spec.body }),
          signal: AbortSignal.timeout(Math.max(1, until - Date.now()) + 30_000),
        })
        await res.arrayBuffer()
        count(String(res.status))
        // A refused request waits its Retry-After before the next: the flood holds its requests, it does not become
        // a test of how many 429s per second the HTTP front can write.
        if (res.status === 429)
          await new Promise(r => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)))
      } catch {
        count('error')
      }
    }
  }),
)
console.log(JSON.stringify(statuses))
