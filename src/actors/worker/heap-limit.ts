/**
 * @module actors/worker/heap-limit
 * One full garbage collection in a shard thread once its platform client is loaded (for memory per idle
 * session), and the memory-reducing collection any thread runs once it falls quiet (`idle-heap.ts`).
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

/** V8's `gc()` with its options (`--expose-gc`): `last-resort` is the collection V8 runs on memory pressure. */
type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'regular' | 'last-resort' }) => void

export function collectGarbageOnce(): void {
  takeGcFunction()?.()
}

/**
 * The memory-reducing collection: full collections until nothing more is freed, with V8's flag to reduce its
 * footprint, so the young generation shrinks back to its smallest size and pooled pages go back to the system.
 */
export function collectGarbageReducingMemory(): void {
  takeGcFunction()?.({ type: 'major', execution: 'sync', flavor: 'last-resort' })
}

let taken: Gc | undefined

function takeGcFunction(): Gc | undefined {
  const exposed = (globalThis as { gc?: Gc }).gc
  if (typeof exposed === 'function') return exposed // started with --expose-gc
  if (taken) return taken
  // The flag is process-wide: another shard thread loading its platform at the same moment may switch it off between
  // our two steps, so the function is asked for without throwing, and asked again (the steps take microseconds).
  for (let attempt = 0; attempt < 3 && !taken; attempt++) taken = takeGc()
  return taken
}

/**
 * Node offers a collection only behind --expose-gc: the flag is on just long enough to take the function from a
 * fresh context, so neither this context nor those of threads started later get a global `gc`.
 */
function takeGc(): Gc | undefined {
  v8.setFlagsFromString('--expose-gc')
  try {
    return vm.runInNewContext('typeof gc === "function" ? gc : undefined') as Gc | undefined
  } finally {
    v8.setFlagsFromString('--no-expose-gc')
  }
}
