/**
 * @module actors/worker/worker-file
 * Where the worker entry and the default link module are. Compiled (dist/) they are `.js` files beside this one.
 * Under tsx/vitest the sources are `.ts`, which a worker thread cannot load by itself: the thread then starts from
 * `worker-dev.mjs`, which registers tsx first. The check is whether this very module was loaded as `.ts`.
 */
import { fileURLToPath } from 'node:url'

const fromSource = import.meta.url.endsWith('.ts')

export const workerFilename = (): string =>
  fileURLToPath(new URL(fromSource ? './worker-dev.mjs' : './worker.js', import.meta.url))

export const defaultLinkModule = (): string =>
  fileURLToPath(
    new URL(fromSource ? '../../platform/baileys/module.ts' : '../../platform/baileys/module.js', import.meta.url),
  )
