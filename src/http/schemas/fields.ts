/**
 * @module http/schemas/fields
 * The field rules shared by the body schemas. Optional fields treat null and '' as absent (a default thumbnail is
 * used when empty, SPEC: Media objects). Required strings stop at `should not be empty` so an empty URL does not
 * also report `must be an http or https URL`.
 */
import { z } from 'zod'
import { RULE } from './validation-lines.js'
import { fill } from '../../protocol/template.js'
import { normalisePhone } from './phone.js'

const blankToUndefined = (value: unknown): unknown => (value === null || value === '' ? undefined : value)

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false
  const url = new URL(value)
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
}

export const requiredString = () => z.string().min(1, { abort: true })

export const optionalString = () => z.preprocess(blankToUndefined, z.string().optional())

export const httpUrl = () => requiredString().refine(isHttpUrl, RULE.HTTP_URL)

export const optionalHttpUrl = () =>
  z.preprocess(blankToUndefined, z.string().refine(isHttpUrl, RULE.HTTP_URL).optional())

/** Durations (seconds) and sizes (bytes): SPEC: greater than 0. */
export const positiveNumber = () => z.number().positive()

/** Latitude/longitude: SPEC says must not be 0; the range keeps nonsense away from the platform. */
export const coordinate = (limit: number) =>
  z
    .number()
    .refine(v => v !== 0, RULE.NOT_ZERO)
    .refine(v => v >= -limit && v <= limit, fill(RULE.BETWEEN, { limit }))

/** A phone number in international format, normalised to digits. */
export const phoneNumber = () =>
  requiredString()
    .refine(v => normalisePhone(v) !== undefined, RULE.PHONE)
    .transform(v => normalisePhone(v) as string)
