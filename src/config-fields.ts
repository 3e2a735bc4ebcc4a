/**
 * @module config-fields
 * The field types settings are written with (src/config.ts and the settings of a feature kept beside it, such as
 * src/proxy/proxy-settings.ts): an integer with a floor, and a boolean written `true`/`false`/`1`/`0`.
 */
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
