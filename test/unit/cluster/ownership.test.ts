/**
 * One ownership pass's decisions (cluster/ownership.ts `plan`): adopt what belongs here and nobody holds, step
 * down where another node holds the lease, hand over what belongs on another node, leave everything else alone.
 */
import { describe, expect, it } from 'vitest'
import { plan } from '../../../src/cluster/ownership.js'
import { homeOf } from '../../../src/cluster/placement.js'
import { newSessionIds } from '../../../src/actors/main/ids.js'

const nodes = ['node-1', 'node-2']
/** An id whose home among `nodes` is `node`. */
function idHomedAt(node: string): string {
  for (;;) {
    const { id } = newSessionIds()
    if (homeOf(id, nodes) === node) return id
  }
}

describe('ownership plan', () => {
  const mine = idHomedAt('node-1')
  const theirs = idHomedAt('node-2')

  it('adopts a free session that belongs here, and one whose lease this node left behind', () => {
    expect(plan('node-1', [mine], [undefined], new Set(), nodes).adopt).toEqual([mine])
    expect(plan('node-1', [theirs], ['node-1|4'], new Set(), nodes).adopt).toEqual([theirs])
  })

  it('does not adopt what belongs elsewhere or what another node holds', () => {
    const pass = plan('node-1', [theirs, mine], [undefined, 'node-2|7'], new Set(), nodes)
    expect(pass).toEqual({ adopt: [], stepDown: [], handOver: [] })
  })

  it('steps down from a session whose lease another node holds', () => {
    expect(plan('node-1', [mine], ['node-2|9'], new Set([mine]), nodes).stepDown).toEqual([mine])
  })

  it('hands over a session running here that belongs on another node, and keeps its own', () => {
    const pass = plan('node-1', [mine, theirs], ['node-1|1', 'node-1|2'], new Set([mine, theirs]), nodes)
    expect(pass).toEqual({ adopt: [], stepDown: [], handOver: [theirs] })
  })

  it('keeps everything when it is the only node taking sessions', () => {
    const pass = plan('node-1', [mine, theirs], ['node-1|1', undefined], new Set([mine]), ['node-1'])
    expect(pass).toEqual({ adopt: [theirs], stepDown: [], handOver: [] })
  })
})
