/**
 * A client that keeps its connection alive and comes back after a pause must find it open: Node closes an idle
 * kept-alive connection after 5 s, and a client pool or load balancer reusing it just then gets `ECONNRESET` /
 * `socket hang up` for a request the gateway never saw.
 */
import { expect, it } from 'vitest'
import { okServer } from '../../../support/ok-server.js'
import { reuseAfterIdle } from '../../../support/keep-alive.js'

const { port } = okServer()

it('keeps an idle connection open past Node’s 5 s and says for how long', async () => {
  const [first, second] = await reuseAfterIdle(port(), '/session', 6_000)
  expect(first).toMatch(/^HTTP\/1\.1 200/)
  // what a client pool reads to size its idle timeout: above the 60 s common load balancers use
  expect(first).toMatch(/\r\nkeep-alive: timeout=65\r\n/i)
  expect(second).toMatch(/^HTTP\/1\.1 200/)
}, 20_000)
