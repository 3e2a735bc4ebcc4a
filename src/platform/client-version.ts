/**
 * @module platform/client-version
 * The platform's web client version (`a.b.c`, e.g. `2.3000.1043857760`): what a link tells the platform it runs,
 * and what the platform refuses at login (405) once it is too old. Parsed strictly: it comes from settings, from
 * the store and from a lookup over the network (untrusted input).
 */

export type ClientVersion = readonly [number, number, number]

/** Three unsigned integers of at most 10 digits each (the largest part seen is a 10-digit build number). */
const VERSION_TEXT = /^(\d{1,10})\.(\d{1,10})\.(\d{1,10})$/

/** `2.3000.1043857760` → [2, 3000, 1043857760]; undefined for anything else. */
export function parseClientVersion(text: string): ClientVersion | undefined {
  const match = VERSION_TEXT.exec(text)
  if (!match) return undefined
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

export const formatClientVersion = (version: ClientVersion): string => version.join('.')

/** Negative when `a` is older than `b`, 0 when equal. */
export function compareClientVersions(a: ClientVersion, b: ClientVersion): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
}
