/**
 * Placement: every node computes the same home for a session; homes spread evenly; a join moves only the sessions
 * that now belong on the new node, a departure only the departed node's; new ids are drawn to land where asked.
 */
import { describe, expect, it } from 'vitest'
import { drawIdHomedAt, homeOf, leastLoaded } from '../../../src/cluster/placement.js'
import { newSessionIds } from '../../../src/actors/main/ids.js'

const ids = Array.from({ length: 3_000 }, () => newSessionIds().id)
const three = ['node-1', 'node-2', 'node-3']

describe('homeOf', () => {
  it('is the same whatever the order of the node list', () => {
    for (const id of ids.slice(0, 200)) expect(homeOf(id, [...three].reverse())).toBe(homeOf(id, three))
  })

  it('spreads sessions evenly (each of 3 nodes within 10 % of a third)', () => {
    const counts = new Map<string, number>()
    for (const id of ids) counts.set(homeOf(id, three)!, (counts.get(homeOf(id, three)!) ?? 0) + 1)
    for (const node of three) expect(Math.abs(counts.get(node)! - 1_000)).toBeLessThan(100)
  })

  it('moves only the sessions that now belong on a joining node, about a quarter of them', () => {
    const four = [...three, 'node-4']
    let moved = 0
    for (const id of ids) {
      const before = homeOf(id, three)
      const after = homeOf(id, four)
      if (after !== before) {
        expect(after).toBe('node-4')
        moved++
      }
    }
    expect(moved / ids.length).toBeGreaterThan(0.2)
    expect(moved / ids.length).toBeLessThan(0.3)
  })

  it("moves only a departed node's sessions, spread over the survivors", () => {
    const survivors = ['node-1', 'node-3']
    const counts = new Map<string, number>()
    for (const id of ids) {
      const before = homeOf(id, three)
      const after = homeOf(id, survivors)!
      if (before !== 'node-2') expect(after).toBe(before)
      else counts.set(after, (counts.get(after) ?? 0) + 1)
    }
    expect(Math.abs(counts.get('node-1')! - counts.get('node-3')!)).toBeLessThan(150)
  })

  it('has no home without nodes', () => {
    expect(homeOf(ids[0]!, [])).toBeUndefined()
  })
})

describe('new sessions', () => {
  it('draws ids whose home is the node asked for', () => {
    for (const node of three) {
      for (let i = 0; i < 20; i++) expect(homeOf(drawIdHomedAt(newSessionIds, node, three).id, three)).toBe(node)
    }
  })

  it('picks the least loaded node, the lower name on a tie', () => {
    expect(
      leastLoaded([
        { node: 'b', sessions: 3 },
        { node: 'a', sessions: 5 },
        { node: 'c', sessions: 3 },
      ])?.node,
    ).toBe('b')
    expect(leastLoaded([])).toBeUndefined()
  })
})
