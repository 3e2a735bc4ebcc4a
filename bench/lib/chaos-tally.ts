/**
 * @module bench/lib/chaos-tally
 * What the chaos bench counts at the end, from the platform's side (the sandbox):
 * - lost: texts answered 200 that are not in their contact's inbox after the settle time;
 * - doubled: texts (by their nonce) in an inbox more than once;
 * - concurrent sockets: from the device ledger (GET /devices), each time the platform saw a second live connection
 *   of one session: a 440 `replaced` not explained by a frozen node (whose open sockets the node taking its
 *   sessions over necessarily replaces), and each account with a stanza on a superseded connection in a fault's
 *   window (the old connection still writing after the new login).
 */
import type { FaultRecord } from './chaos-faults.js'

export interface AccountCounts {
  replacedKicks: number
  supersededStanzas: number
}
export type Ledger = Map<string, AccountCounts>

/** GET /devices summed per account. */
export async function readLedger(sandboxUrl: string): Promise<Ledger> {
  const res = await fetch(`${sandboxUrl}/devices`)
  const { devices } = (await res.json()) as { devices: (AccountCounts & { account: string })[] }
  const out: Ledger = new Map()
  for (const d of devices) {
    const a = out.get(d.account) ?? { replacedKicks: 0, supersededStanzas: 0 }
    a.replacedKicks += d.replacedKicks
    a.supersededStanzas += d.supersededStanzas
    out.set(d.account, a)
  }
  return out
}

export interface LedgerWindow {
  /** The ledger when the window opened (before its fault). */
  before: Ledger
  fault?: FaultRecord
}

export interface ConcurrentTally {
  concurrentSockets: number
  replacedKicks: number
  expectedKicks: number
  supersededStanzas: number
  /** `<fault kind>: <account>` of every counted moment, for the post-mortem. */
  moments: string[]
}

/** Windows in order; each one ends where the next begins, the last at `end`. */
export function concurrentSockets(windows: LedgerWindow[], end: Ledger): ConcurrentTally {
  const tally: ConcurrentTally = {
    concurrentSockets: 0,
    replacedKicks: 0,
    expectedKicks: 0,
    supersededStanzas: 0,
    moments: [],
  }
  windows.forEach((w, k) => {
    const after = windows[k + 1]?.before ?? end
    for (const [account, now] of after) {
      const then = w.before.get(account) ?? { replacedKicks: 0, supersededStanzas: 0 }
      const kicks = now.replacedKicks - then.replacedKicks
      const stanzas = now.supersededStanzas - then.supersededStanzas
      const allowed = w.fault?.mayKick.has(account) ? 1 : 0
      tally.replacedKicks += kicks
      tally.expectedKicks += Math.min(kicks, allowed)
      tally.supersededStanzas += stanzas
      const moments = Math.max(0, kicks - allowed) + (stanzas > 0 ? 1 : 0)
      tally.concurrentSockets += moments
      if (moments > 0)
        tally.moments.push(`${w.fault?.kind ?? 'no fault'}: ${account} (${kicks} kicks, ${stanzas} stanzas)`)
    }
  })
  return tally
}

/** Lost and doubled texts, reading each contact's inbox until every answered text is there or `settleMs` passed. */
export async function deliveries(
  sandboxUrl: string,
  answered: Record<string, string[]>,
  settleMs: number,
): Promise<{ lost: number; doubled: number; lostTexts: string[]; doubledTexts: string[]; doubledRecords: unknown[] }> {
  for (const deadline = Date.now() + settleMs; ; ) {
    const lostTexts: string[] = []
    const doubledTexts: string[] = []
    const doubledRecords: unknown[] = []
    for (const [contact, texts] of Object.entries(answered)) {
      const res = await fetch(`${sandboxUrl}/accounts/${contact}/inbox`)
      const { messages } = (await res.json()) as { messages: { text?: string }[] }
      const counts = new Map<string, number>()
      for (const m of messages) if (m.text) counts.set(m.text, (counts.get(m.text) ?? 0) + 1)
      for (const t of texts) if (!counts.has(t)) lostTexts.push(t)
      for (const [t, n] of counts) if (n > 1) doubledTexts.push(t)
      doubledRecords.push(...messages.filter(m => m.text !== undefined && (counts.get(m.text) ?? 0) > 1))
    }
    if (lostTexts.length === 0 || Date.now() > deadline)
      return { lost: lostTexts.length, doubled: doubledTexts.length, lostTexts, doubledTexts, doubledRecords }
    await new Promise(r => setTimeout(r, 2_000))
  }
}
