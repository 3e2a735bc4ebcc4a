/**
 * @module bench/lib/delivered
 * How many of a burst's acknowledged texts reached their recipients, read from the sandbox's inboxes: for a figure
 * per delivered text, and to say whether every acknowledged one arrived.
 *
 * Why no imports: bench/bare/client.ts loads this file by its path on Node (type stripping) and on Bun.
 */

/**
 * How many of `sent` (recipient phone → message ids) are in the recipients' inboxes, asking again every `everyS`
 * seconds until `expected` are there or `waitS` seconds have passed (stragglers of the burst's tail).
 */
export async function deliveredOf(
  sandboxUrl: string,
  sent: Map<string, string[]>,
  expected: number,
  waitS: number,
  everyS: number,
): Promise<number> {
  for (const deadline = Date.now() + waitS * 1000; ; ) {
    let delivered = 0
    for (const [phone, ids] of sent) {
      const inbox = (await (await fetch(`${sandboxUrl}/accounts/${phone}/inbox`)).json()) as {
        messages?: { id: string }[]
      }
      const got = new Set((inbox.messages ?? []).map(m => m.id))
      delivered += ids.filter(id => got.has(id)).length
    }
    if (delivered >= expected || Date.now() > deadline) return delivered
    await new Promise(resolve => setTimeout(resolve, everyS * 1000))
  }
}
