/**
 * The sandbox's world at the size of a scale bench (src/sandbox/world.ts, picture-notify.ts): an account is found
 * by its phone in every world the patches produce, a pairing's new phone is added without touching the rest, and a
 * patch that changes a picture still tells exactly the companions of the account or group it changed, whatever
 * the size of the world around it.
 */
import { describe, expect, it } from 'vitest'
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { SandboxContext } from '../../../src/sandbox/context.js'
import { notifyPictureChanges } from '../../../src/sandbox/picture-notify.js'
import { emptyWorld, mergeWorld, withAccount, worldAccount } from '../../../src/sandbox/world.js'

const phones = (n: number) => Array.from({ length: n }, (_, i) => String(15550200000 + i))

/** A context whose accounts each have one linked companion that records what it is sent. */
function recordingContext(): { ctx: SandboxContext; sent: Map<string, BinaryNode[]> } {
  const sent = new Map<string, BinaryNode[]>()
  const companion = (phone: string) => ({
    link: { send: (node: BinaryNode) => sent.set(phone, [...(sent.get(phone) ?? []), node]) },
    offline: [],
  })
  const ctx = { accounts: { get: (phone: string) => ({ companions: new Map([[1, companion(phone)]]) }) } }
  return { ctx: ctx as unknown as SandboxContext, sent }
}

describe('the sandbox world', () => {
  it('finds each account by its phone, in the world each patch or pairing makes', () => {
    const many = phones(5_000)
    let world = mergeWorld(emptyWorld(), { accounts: many.map((phone, i) => ({ phone, name: `Tenant ${i}` })) })
    expect(worldAccount(world, many[4_321])?.name).toBe('Tenant 4321')
    expect(worldAccount(world, '15559999999')).toBeUndefined()
    expect(worldAccount(world, undefined)).toBeUndefined()

    const before = world
    world = withAccount(world, '15559999999')
    expect(worldAccount(world, '15559999999')).toEqual({ phone: '15559999999' })
    expect(world.accounts).toHaveLength(5_001)
    expect(world.groups).toBe(before.groups)
    // the world before is as it was: a pairing replaces the world, it does not change the one others hold
    expect(worldAccount(before, '15559999999')).toBeUndefined()

    world = mergeWorld(world, { accounts: [{ phone: many[10]!, name: 'Renamed' }] })
    expect(worldAccount(world, many[10])?.name).toBe('Renamed')
  })

  it("tells an account's companions its picture changed, and no one else, in a world of thousands", () => {
    const many = phones(3_000)
    const before = mergeWorld(emptyWorld(), {
      accounts: many.map(phone => ({ phone })),
      groups: [
        { id: '120363000000000001@g.us', name: 'Team', participants: [{ phone: many[1]! }, { phone: many[2]! }] },
      ],
    })
    const after = mergeWorld(before, {
      accounts: [{ phone: many[2_500]!, picture: true }],
      groups: [
        { id: '120363000000000001@g.us', name: 'Team', picture: true, participants: before.groups[0]!.participants },
      ],
    })
    const { ctx, sent } = recordingContext()
    notifyPictureChanges(ctx, before, after)
    expect([...sent.keys()].sort()).toEqual([many[1], many[2], many[2_500]].sort())
    const [notice] = sent.get(many[2_500]!)!
    expect(notice!.attrs).toMatchObject({ type: 'picture', from: `${many[2_500]}@s.whatsapp.net` })
    expect((notice!.content as BinaryNode[])[0]!.tag).toBe('set')
    expect(sent.get(many[1]!)![0]!.attrs.from).toBe('120363000000000001@g.us')

    const unchanged = recordingContext()
    notifyPictureChanges(unchanged.ctx, after, withAccount(after, '15559999999'))
    expect(unchanged.sent.size).toBe(0)
  })
})
