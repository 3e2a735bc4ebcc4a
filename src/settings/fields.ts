/**
 * @module settings/fields
 * The kinds of setting every part's slice of the settings is made of (src/gateway-settings.ts puts the slices
 * together): an integer with a default and a floor, a boolean written `true`/`false`/`1`/`0`, a file that must
 * exist, an optional value where empty means unset. Each failure reads "expected ...", which ./errors.ts puts into
 * its one line. `pickSettings` hands a part exactly its slice of the values.
 */
import { accessSync, constants } from 'node:fs'
import { z } from 'zod'

/** `def` may be a function: a default worked out from the machine (MAX_SESSIONS), read when the settings are. */
export const int = (def: number | (() => number), min = 0) =>
  z.coerce
    .number({ error: 'expected an integer' })
    .int({ error: 'expected an integer' })
    .min(min, { error: `expected an integer >= ${min}` })
    .default(typeof def === 'number' ? () => def : def)

export const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(def ? 'true' : 'false')
    .transform(v => v === 'true' || v === '1')

/** `schema`, where an empty value is unset (what `FOO=` in an env file means). */
export const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess(v => (v === '' ? undefined : v), schema.optional())

const readable = (file: string): boolean => {
  try {
    accessSync(file, constants.R_OK)
    return true
  } catch {
    return false
  }
}

/** A path to a file the process can read, or unset (an empty value is unset). */
export const optionalFile = () => optional(z.string().refine(readable, 'expected the path of a readable file'))

/** The fields of one part's slice, by setting name. */
export type SettingFields = Record<string, z.ZodType>

/** The parsed values of a slice. */
export type SliceOf<F extends SettingFields> = z.infer<z.ZodObject<F>>

/** Exactly the values of one slice out of the whole settings (what a part is handed, at run time too). */
export function pickSettings<F extends SettingFields>(values: SliceOf<F>, fields: F): SliceOf<F> {
  const picked: Record<string, unknown> = {}
  for (const name of Object.keys(fields)) picked[name] = (values as Record<string, unknown>)[name]
  return picked as SliceOf<F>
}

/** A value never echoed, not even in the start's error line (a token, a key, a URL that may hold a password). */
export const secret = <S extends z.ZodType>(schema: S): S => schema.meta({ secret: true }) as S

export const isSecret = (field: z.ZodType): boolean => field.meta()?.secret === true
