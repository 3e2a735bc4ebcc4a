/**
 * `npm run migrate:redis -- --data-dir ./data [--redis-url redis://host:6379]`: copies every session of the
 * embedded store (lmdb in DATA_DIR) to Redis, for switching a gateway to cluster mode (docs/cluster.md).
 * Stop the gateway first. DATA_KEY comes from the environment, as for the gateway; REDIS_URL and DATA_DIR too
 * when the flags are not given. Prints one line per session and a summary; exits 1 with one line on an error.
 */
import { parseArgs } from 'node:util'
import { migrateLmdbToRedis } from '../src/cluster/store/migrate.js'

const USAGE =
  'usage: npm run migrate:redis -- --data-dir DIR [--redis-url redis://host:port] (DATA_KEY from the environment)'

try {
  const { values } = parseArgs({
    options: { 'data-dir': { type: 'string' }, 'redis-url': { type: 'string' }, help: { type: 'boolean' } },
  })
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const dataDir = values['data-dir'] ?? process.env.DATA_DIR
  const redisUrl = values['redis-url'] ?? process.env.REDIS_URL
  if (!dataDir || !redisUrl) throw new Error(`${!dataDir ? '--data-dir' : '--redis-url'} is missing; ${USAGE}`)
  const dataKey = process.env.DATA_KEY || undefined
  const result = await migrateLmdbToRedis({ dataDir, redisUrl, dataKey, log: line => console.log(line) })
  console.log(
    `migrated ${result.copied.length} sessions (${result.rows} rows), skipped ${result.skipped.length} already in Redis`,
  )
  process.exit(0)
} catch (err) {
  console.error(`migration failed: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
}
