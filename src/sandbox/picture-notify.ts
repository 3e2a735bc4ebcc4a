/**
 * @module sandbox/picture-notify
 * When a world patch sets or removes a group's or an account's picture, the platform tells the linked clients that
 * care (`<notification type="picture">` with `<set>` or `<delete>`): every companion of the group's participants, or
 * the account's own companions. Baileys turns it into `contacts.update { imgUrl: 'changed' | 'removed' }`, which is
 * how a client knows to drop a cached picture URL.
 */
import { randomBytes } from 'node:crypto'
import { deliverToCompanion } from './accounts.js'
import type { SandboxContext } from './context.js'
import { node, unixNow } from './nodes.js'
import type { World } from './types.js'

function notify(ctx: SandboxContext, phones: string[], from: string, picture: boolean): void {
  const change = picture ? node('set', { jid: from, id: String(Date.now()) }) : node('delete', { jid: from })
  for (const phone of new Set(phones)) {
    for (const companion of ctx.accounts.get(phone)?.companions.values() ?? []) {
      const id = randomBytes(8).toString('hex').toUpperCase()
      deliverToCompanion(companion, node('notification', { from, type: 'picture', id, t: unixNow() }, [change]))
    }
  }
}

/**
 * Compares the picture flags of two worlds and notifies every change. The earlier world is looked up by key, once
 * per call: a pairing with a new phone patches the world, and a scan of `before` per account made each pairing cost
 * the square of the world's accounts (250 ms of the sandbox's CPU a pairing at 5,000 accounts).
 */
export function notifyPictureChanges(ctx: SandboxContext, before: World, after: World): void {
  const groupsBefore = new Map(before.groups.map(g => [g.id, g]))
  for (const group of after.groups) {
    const previous = groupsBefore.get(group.id)
    if (!previous || !!previous.picture === !!group.picture) continue
    notify(
      ctx,
      group.participants.map(p => p.phone),
      group.id,
      !!group.picture,
    )
  }
  const accountsBefore = new Map(before.accounts.map(a => [a.phone, a]))
  for (const account of after.accounts) {
    const previous = accountsBefore.get(account.phone)
    if (!previous || !!previous.picture === !!account.picture) continue
    notify(ctx, [account.phone], `${account.phone}@s.whatsapp.net`, !!account.picture)
  }
}
