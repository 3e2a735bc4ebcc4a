/** Piscina worker entry for the shard-pool abort test: registers tsx in this thread, then runs the TypeScript body. */
import { register } from 'tsx/esm/api'

register()
const body = await import('./abort-worker-body.ts')
export default body.default
