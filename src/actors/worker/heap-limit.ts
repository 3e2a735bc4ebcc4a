/**
 * @module actors/worker/heap-limit
 * One full garbage collection in a shard thread once its platform client is loaded (issue 19: memory per idle
 * session).
 *
 * Until an isolate's first full collection V8 has computed no old-generation limit: it lets the old generation grow
 * to a large initial limit (up to 256 MB) and collects only the young generation meanwhile, and its memory reducer,
 * which collects an idle heap, starts only after a full collection. A shard thread pairing or restoring sessions
 * makes garbage that outlives the young generation (pre-keys, key-store writes, protobuf, Signal records) while what
 * it keeps is ~40 MB plus ~0.15 MB a session, so each shard thread sat at 250-280 MB of heap after pairing 100
 * sessions, ~200 MB of it garbage that nothing collected while the sessions idled. One full collection once the
 * platform module is loaded ends that mode: from then on V8 sizes the old generation from what the thread holds and
 * collects and shrinks it as usual.
 */
import v8 from 'node:v8'
import vm from 'node:vm'

export function collectGarbageOnce(): void {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (typeof exposed === 'function') {
    exposed() // started with --expose-gc
    return
  }
  // The flag is process-wide: another shard thread loading its platform at the same moment may switch it off between
  // our two steps, so the function is asked for without throwing, and asked again (the steps take microseconds).
  for (let attempt = 0; attempt < 3; attempt++) {
    const gc = takeGc()
    if (gc) {
      gc()
      return
    }
  }
}

/**
 * Node offers a collection only behind --expose-gc: the flag is on just long enough to take the function from a
 * fresh context, so neither this context nor those of threads started later get a global `gc`.
 */
function takeGc(): (() => void) | undefined {
  v8.setFlagsFromString('--expose-gc')
  try {
    return vm.runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined
  } finally {
    v8.setFlagsFromString('--no-expose-gc')
  }
}
