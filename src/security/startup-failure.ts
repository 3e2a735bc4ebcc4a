/**
 * @module security/startup-failure
 * A gateway that cannot start says why in one line on stderr and exits 1: bad settings (DATA_KEY format, a short
 * CREATE_SESSION_TOKEN...), a DATA_KEY that does not fit the DATA_DIR and a registry row that fails authentication
 * (altered or swapped behind the gateway's back) and a PORT it cannot listen on are the operator's to fix, not a
 * stack trace to read. Anything unexpected still shows its stack.
 */
import { DataKeyError } from '../storage/data-key.js'
import { SealedValueError } from '../storage/value-cipher.js'
import { SettingsError } from '../settings/errors.js'

export function startupFailed(err: unknown): never {
  // the settings' own line is complete as it is (`invalid setting PORT: expected an integer, got "abc"`)
  if (err instanceof SettingsError) {
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  }
  const listen = listenFailure(err)
  if (listen) {
    process.stderr.write(`gateway cannot start: ${listen}\n`)
    process.exit(1)
  }
  const expected = err instanceof DataKeyError || err instanceof SealedValueError
  const text = expected ? (err as Error).message : err instanceof Error ? (err.stack ?? err.message) : String(err)
  process.stderr.write(`gateway cannot start: ${text}\n`)
  process.exit(1)
}

/** Node's own words for the listen errors an operator meets, with HOST and PORT said the way they set them. */
const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'another process already listens there',
  EACCES: 'this user may not listen there (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'HOST is not an address of this machine',
}

function listenFailure(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number }
  if (!(err instanceof Error) || e.syscall !== 'listen' || !e.code) return undefined
  const why = LISTEN_ERRORS[e.code] ?? e.message
  return `cannot listen on ${e.address ?? 'HOST'}:${e.port ?? 'PORT'} (${e.code}): ${why}`
}
