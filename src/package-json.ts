/**
 * @module package-json
 * The gateway's own package.json (beside src/ and dist/, which sit at the same depth): what the running code says
 * about itself, its version in the OpenAPI document and its `engines` in the Node check, is read from the one file
 * npm reads.
 */
import { readFileSync } from 'node:fs'

const PACKAGE_JSON = new URL('../package.json', import.meta.url)

/** The parsed file, or undefined when it cannot be read or parsed. */
export function readPackageJson(file: URL = PACKAGE_JSON): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The package's `version` (`0.1.0`). */
export function packageVersion(file?: URL): string {
  const version = readPackageJson(file)?.version
  return typeof version === 'string' ? version : 'unknown'
}
