/**
 * @module actors/worker/worker-dev
 * Worker entry when the gateway runs from TypeScript sources (tsx, vitest): registers tsx in this thread, then
 * loads the real entry. Never used from dist/ (tsc does not copy .mjs files; `worker-file.ts` picks `worker.js`).
 */
import { register } from 'tsx/esm/api'

register()
const entry = await import('./worker.ts')
export default entry.default
