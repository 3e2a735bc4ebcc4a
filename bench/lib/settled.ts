/**
 * @module bench/lib/settled
 * For the cluster benches: waits until every session has an owner and none moved for `quietMs`, read from the
 * sessions' leases, so that a figure starts from a cluster that has finished placing its sessions.
 */
export async function settled(
  ids: string[],
  ownerOf: (id: string) => Promise<string | undefined>,
  quietMs = 3_000,
  timeoutMs = 180_000,
): Promise<void> {
  let last = ''
  let since = Date.now()
  for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
    const owners = await Promise.all(ids.map(ownerOf))
    const now = owners.join(',')
    if (owners.includes(undefined) || now !== last) {
      last = now
      since = Date.now()
    } else if (Date.now() - since >= quietMs) return
    await new Promise(r => setTimeout(r, 250))
  }
  throw new Error('the cluster did not settle')
}
