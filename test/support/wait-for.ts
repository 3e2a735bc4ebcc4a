/**
 * @module test/support/wait-for
 * The tests' one polling helper: tests wait for a state instead of sleeping a fixed time, so they run as fast as
 * the system allows and still pass on a loaded two-core machine.
 */

/** What a probe returns while the awaited state has not come yet. */
export type NotYet = undefined | null | false | ''

/**
 * Calls `probe` every `everyMs` until it returns a value other than undefined, null, false or '' (so both
 * `() => snapshot?.qrcode` and `() => count >= 2` read naturally), and returns that value. After `timeoutMs` it
 * throws `timed out waiting for <what>`; an error thrown by the probe ends the wait at once. The default interval,
 * 250 ms, suits probes that are HTTP calls to real processes (a quicker poll only loads them: the 1,200-phone
 * status test polls every inbox per round); in-process probes pass a shorter one.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | NotYet | Promise<T | NotYet>,
  timeoutMs = 30_000,
  everyMs = 250,
): Promise<Exclude<T, NotYet>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== null && value !== false && value !== '') return value as Exclude<T, NotYet>
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, everyMs))
  }
}
