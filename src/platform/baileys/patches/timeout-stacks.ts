/**
 * @module platform/baileys/patches/timeout-stacks
 * Baileys' time-out helpers keep the caller's stack for the error of a time-out, as text, on every call, although
 * almost every call ends before its time-out and never builds that error.
 *
 * Why: `promiseTimeout` (Baileys' `Utils/generics.js`) guards every frame the socket writes (`sendRawMessage`: the
 * message itself, the ack of each receipt, every query) and every query's wait; it and the `delayCancellable` it
 * uses each run `const stack = new Error().stack`, turning the stack into text at once (through the source-map
 * support when it is on), only to put it in the `data` of a Boom that is built if the time-out fires (or, for the
 * cancel, into a rejection nobody reads). That was ~9 % of a shard's CPU per sent message, and the helpers ~17 %
 * with the Boom they make per call (issue 19).
 *
 * How: the two helpers keep the `Error` (V8 records its frames when it is made, which is cheap) and the Booms get a
 * `data.stack` getter that turns it into text when read, so a time-out's error carries the same text as before, from
 * the same place. Baileys is an ES module, whose functions cannot be replaced from outside, so its `generics.js` is
 * rewritten as it loads, by a module load hook of this thread (`module.registerHooks`): it must be installed before
 * Baileys is first imported, which `../index.ts` does before it loads the adapter. No node_modules edit. If the
 * source is not what this expects (another Baileys version), it is left as it is and `patchedSources()` says so;
 * the unit test pins the version.
 */
import { createRequire, registerHooks } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const INSTALLED = Symbol.for('gateway.timeout-stacks')

/** The file the hook rewrites: the copy of Baileys this package resolves. */
export const GENERICS_URL = pathToFileURL(
  path.join(
    path.dirname(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json')),
    'lib/Utils/generics.js',
  ),
).href

const EAGER_STACK = /const stack = new Error\(\)\.stack;/g
const STACK_DATA = /data: \{\s*stack\s*\}/g

/**
 * `generics.js` with the lazy stacks, or undefined when its source is not the expected one (two helpers that each
 * take the stack eagerly and hand it to one Boom).
 */
export function lazyStackSource(source: string): string | undefined {
  if (source.match(EAGER_STACK)?.length !== 2 || source.match(STACK_DATA)?.length !== 2) return undefined
  return source
    .replace(EAGER_STACK, 'const stackError = new Error();')
    .replace(STACK_DATA, 'data: { get stack() { return stackError.stack; } }')
}

const state = { generics: 'not loaded' as 'not loaded' | 'patched' | 'unexpected source' }

/** Whether the hook found and rewrote Baileys' helpers in this thread (for tests and a warning). */
export const patchedSources = (): { generics: typeof state.generics } => ({ ...state })

/** Idempotent, per thread; must run before `@whiskeysockets/baileys` is first imported in the thread. */
export function installTimeoutStacks(): void {
  const g = globalThis as Record<PropertyKey, unknown>
  if (g[INSTALLED]) return
  g[INSTALLED] = true
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context)
      if (url.split('?')[0] !== GENERICS_URL || loaded.source === undefined || loaded.source === null) return loaded
      const text = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source)
      const patched = lazyStackSource(text)
      state.generics = patched === undefined ? 'unexpected source' : 'patched'
      return patched === undefined ? loaded : { ...loaded, source: patched }
    },
  })
}
