/**
 * @module platform/baileys/patches/source-hook
 * One module load hook per thread that rewrites chosen Baileys source files as they load.
 *
 * Why: Baileys is an ES module; its functions cannot be replaced from outside, and some of them cost every sent
 * message more than they need (send profile). A load hook (`module.registerHooks`) hands us a file's text before it is
 * compiled, so a patch can rewrite a few lines of it, with no node_modules edit. The hook must be installed before
 * Baileys is first imported in the thread (`../module.ts` does it before it loads the adapter). A patch whose
 * expected text is not found (another Baileys version) leaves the file as it is, and `patchState()` says so, so the
 * shard can warn; the unit tests pin the version.
 */
import { createRequire, registerHooks } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/** A rewrite of one Baileys file: `rewrite` returns the new text, or undefined when the text is not the expected one. */
export interface SourcePatch {
  name: string
  /** The file's URL, as the loader sees it (`baileysFileUrl`). */
  url: string
  rewrite(source: string): string | undefined
}

export type PatchState = 'not loaded' | 'patched' | 'unexpected source'

/** The URL of a file of the copy of Baileys this package resolves, e.g. `lib/Utils/generics.js`. */
export function baileysFileUrl(file: string): string {
  const root = path.dirname(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))
  return pathToFileURL(path.join(root, file)).href
}

/**
 * A patch that points one import of a Baileys file at another module: the statement of `clause`, `from` and the
 * package name `from` in single quotes (found exactly once, else the file is left alone) made to import from `to`
 * (a URL) instead.
 */
export function importRedirect(name: string, file: string, clause: string, from: string, to: string): SourcePatch {
  // quoted apart from `from`, so the production build's import scan does not read these lines as imports of ours
  const quoted = (specifier: string) => `'${specifier}'`
  const line = `${clause} from ${quoted(from)};`
  return {
    name,
    url: baileysFileUrl(file),
    rewrite: source => {
      const parts = source.split(line)
      return parts.length === 2 ? parts.join(`${clause} from ${quoted(to)};`) : undefined
    },
  }
}

const INSTALLED = Symbol.for('gateway.baileys-source-hook')
const states = new Map<string, PatchState>()

/** What became of each patch in this thread (for tests and the shard's warning). */
export const patchState = (): Record<string, PatchState> => Object.fromEntries(states)

/** Idempotent per thread (the first call's patches win); must run before Baileys is first imported in the thread. */
export function installSourcePatches(patches: readonly SourcePatch[]): void {
  const g = globalThis as Record<PropertyKey, unknown>
  if (g[INSTALLED]) return
  g[INSTALLED] = true
  const byUrl = new Map(patches.map(p => [p.url, p]))
  for (const p of patches) states.set(p.name, 'not loaded')
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context)
      const patch = byUrl.get(url.split('?')[0]!)
      if (patch === undefined || loaded.source === undefined || loaded.source === null) return loaded
      const text = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source)
      const patched = patch.rewrite(text)
      states.set(patch.name, patched === undefined ? 'unexpected source' : 'patched')
      return patched === undefined ? loaded : { ...loaded, source: patched }
    },
  })
}
