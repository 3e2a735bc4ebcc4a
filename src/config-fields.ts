/**
 * @module config-fields
 * The kinds of setting every part's slice of the settings is made of (src/config.ts puts the slices together): an
 * integer with a default and a floor, a boolean written `true`/`false`/`1`/`0`, a file that must exist. Each
 * failure reads "expected ...", which config-error.ts puts into its one line.
 */
import { accessSync, constants } from 'node:fs'
import { z } from 'zod'

export const int = (def: number, min = 0) =>
  z.coerce
    .number({ error: 'expected an integer' })
    .int({ error: 'expected an integer' })
    .min(min, { error: `expected an integer >= ${min}` })
    .default(def)

export const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(def ? 'true' : 'false')
    .transform(v => v === 'true' || v === '1')

const readable = (file: string): boolean => {
  try {
    accessSync(file, constants.R_OK)
    return true
  } catch {
    return false
  }
}

/** A path to a file the process can read, or unset (an empty value is unset). */
export const optionalFile = () =>
  z.preprocess(
    v => (v === '' ? undefined : v),
    z.string().refine(readable, 'expected the path of a readable file').optional(),
  )
