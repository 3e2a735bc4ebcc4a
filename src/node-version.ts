/**
 * @module node-version
 * The gateway is built and tested on the Node its package.json names (`engines`: `>=24`). On an older one it still
 * starts (nothing refuses it), but it is not what anyone tested, and some of what the gateway counts on is Node 24's:
 * the cost of an async step stays flat with thousands of Baileys key stores, each with its own AsyncLocalStorage,
 * where on Node 20 it grew with every socket (BENCHMARKS.md, bench:scale:context). So the start says so, in one warn
 * line, before anything else runs.
 *
 * @example
 * nodeVersionWarning('20.20.2', '>=24')
 * // 'Node 20.20.2 is older than the >=24 the gateway is built and tested on (package.json engines): ...'
 */
import { readFileSync } from 'node:fs'

/** `engines.node` of the gateway's package.json (beside src/ and dist/); undefined when it cannot be read. */
export function enginesNode(packageJson = new URL('../package.json', import.meta.url)): string | undefined {
  try {
    const engines = (JSON.parse(readFileSync(packageJson, 'utf8')) as { engines?: { node?: unknown } }).engines
    return typeof engines?.node === 'string' ? engines.node : undefined
  } catch {
    return undefined
  }
}

const numbers = (version: string): number[] => version.split('.').map(part => Number.parseInt(part, 10) || 0)

/** Whether `version` (`20.20.2`) is below `minimum` (`24`, `24.1`); missing parts count as 0. */
function isBelow(version: string, minimum: string): boolean {
  const have = numbers(version)
  const need = numbers(minimum)
  for (let i = 0; i < need.length; i++) {
    const a = have[i] ?? 0
    const b = need[i] ?? 0
    if (a !== b) return a < b
  }
  return false
}

/**
 * The warn line for running on `version` when package.json asks for `range`, or undefined when it fits. Only the
 * `>=X[.Y[.Z]]` form the gateway writes is read; any other range is left unjudged.
 */
export function nodeVersionWarning(version: string, range: string | undefined): string | undefined {
  const minimum = range === undefined ? undefined : /^>=\s*v?(\d+(?:\.\d+){0,2})$/.exec(range.trim())?.[1]
  if (minimum === undefined || !isBelow(version, minimum)) return undefined
  return (
    `Node ${version} is older than the ${range} the gateway is built and tested on (package.json engines): ` +
    'it may fail, or cost more CPU per message as sessions grow; run it on Node 24'
  )
}
