/**
 * Redis down from the start: node-redis keeps trying to connect for as long as it is down, and the store's calls
 * wait for that connection. Closing the store (a SIGTERM while the gateway waits for Redis) must still end: it gives
 * up the connect instead of waiting for a Redis that may never come.
 */
import { describe, expect, it } from 'vitest'
import { openRedisStore } from '../../../../src/cluster/store/redis-store.js'
import { freePort } from '../../../support/processes.js'

describe('a Redis store whose Redis never answers', () => {
  it('closes, and its pending calls fail instead of waiting for ever', async () => {
    const port = await freePort()
    const store = openRedisStore(`redis://127.0.0.1:${port}`, { onError: () => undefined })
    const pending = store.listSessions()
    await store.close()
    await expect(pending).rejects.toThrow('the Redis store was closed before it connected')
  })
})
