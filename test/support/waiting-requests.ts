/**
 * @module test/support/waiting-requests
 * For the tests of requests that wait (GET /session?wait, GET /session/qr?wait): the app on a real loopback port (a
 * waiting request needs a live connection), a request sent now whose answer comes later, and a wait for the app to
 * hold so many waiting requests.
 */
import type http from 'node:http'
import type request from 'supertest'
import { afterEach } from 'vitest'
import { type ServedApp, serveApp } from './fakes/fake-system.js'
import { waitFor } from './wait-for.js'

/** Call at a test file's top level: `serve(env)` starts the app on a port; each is closed after its test. */
export function servedApps(): (env?: NodeJS.ProcessEnv) => Promise<ServedApp> {
  const servers: http.Server[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections()
      await new Promise(resolve => server.close(resolve))
    }
  })
  return async (env = {}) => {
    const served = await serveApp(env)
    servers.push(served.server)
    return served
  }
}

/** Sends a request now (supertest sends only once awaited) and resolves with its response later. */
export const sent = (test: request.Test): Promise<request.Response> => test.then(res => res)

/** Resolves once the app holds `count` waiting requests. */
export const parked = (t: { waiting(): Promise<number> }, count = 1) =>
  waitFor(`${count} waiting request(s)`, async () => (await t.waiting()) === count, 5_000, 10)
