/** Piscina worker entry of the shard-thread abort test: registers tsx in this thread, then runs the TypeScript body. */
import { register } from 'tsx/esm/api'

register()
const body = await import('./abort-worker-body.ts')
export default body.default
