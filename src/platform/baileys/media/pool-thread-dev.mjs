/**
 * @module platform/baileys/media/pool-thread-dev
 * Media pool entry when the gateway runs from TypeScript sources (tsx, vitest): registers tsx in this thread, then
 * loads the real entry (as actors/worker/worker-dev.mjs does for shards). Never used from dist/.
 */
import { register } from 'tsx/esm/api'

register()
const entry = await import('./pool-thread.ts')
export default entry.default
