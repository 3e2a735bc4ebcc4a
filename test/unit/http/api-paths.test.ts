/**
 * @module test/unit/http/api-paths
 * The session API's roots, which cluster mode's front forwards to the node that runs the session, are exactly the
 * first segments of the endpoints' paths other than the probes: an endpoint added under a new root that the list
 * missed would be answered by whichever node the client reached, one that does not run the session.
 */
import { describe, expect, it } from 'vitest'
import { ENDPOINTS } from '../../../src/http/endpoints/index.js'
import { healthEndpoint } from '../../../src/http/endpoints/health/index.js'
import { OPS_PATHS } from '../../../src/http/ops/paths.js'
import { SESSION_PATH, SESSION_API_ROOTS, VIEW_QR_PATH } from '../../../src/http/api-paths.js'

const sessionEndpoints = ENDPOINTS.filter(endpoint => endpoint !== healthEndpoint)
const paths = sessionEndpoints.flatMap(endpoint => Object.keys(endpoint.paths))

describe('the session API roots', () => {
  it("are the first segments of every endpoint's paths but the probes'", () => {
    const roots = new Set(paths.map(path => path.split('/')[1]))
    expect([...roots].sort()).toEqual([...SESSION_API_ROOTS].sort())
  })

  it('leave the probes out: every node answers those itself', () => {
    const probes = Object.keys(healthEndpoint.paths)
    expect(probes.length).toBeGreaterThan(0)
    for (const probe of probes) expect(OPS_PATHS).toContain(probe)
  })

  it('name paths the endpoints serve', () => {
    expect(paths).toContain(SESSION_PATH)
    expect(paths).toContain(VIEW_QR_PATH)
  })
})
