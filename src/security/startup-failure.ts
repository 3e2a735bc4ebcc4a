/**
 * @module security/startup-failure
 * A gateway that cannot start says why in one line on stderr and exits 1: bad settings (DATA_KEY format, a short
 * CREATE_SESSION_TOKEN...) and a DATA_KEY that does not fit the DATA_DIR are the operator's to fix, not a stack
 * trace to read. Anything unexpected still shows its stack.
 */
import { DataKeyError } from '../storage/data-key.js'
import { InvalidSettingsError } from '../config.js'

export function startupFailed(err: unknown): never {
  const expected = err instanceof DataKeyError || err instanceof InvalidSettingsError
  const text = expected ? (err as Error).message : err instanceof Error ? (err.stack ?? err.message) : String(err)
  process.stderr.write(`gateway cannot start: ${text}\n`)
  process.exit(1)
}
