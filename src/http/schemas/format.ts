/**
 * @module http/schemas/format
 * Turns zod issues into the spec's validation lines (`<path> should not be empty`, `<path> must be a string`, ...).
 * Paths are joined with a dot (`image.url`). A missing, null or empty value always reads `should not be empty`,
 * whatever rule zod tripped on. Custom refinements carry only the rule (`must not be 0`); the path is added here.
 */
import type { z } from 'zod'
import { RULE } from './validation-lines.js'
import { fill } from '../../protocol/template.js'

type Issue = z.core.$ZodIssue

/** The value the client sent at `path`, or undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/** The types the schemas' fields have. */
const TYPE_RULES: Record<string, string> = { string: RULE.STRING, number: RULE.NUMBER, object: RULE.OBJECT }

/** Only the issues the schemas can raise have words of their own; any other reads `is invalid` until a schema
 * needs it, and it gets its rule in src/http/schemas/validation-lines.ts and docs/api.md. */
function rule(issue: Issue, value: unknown): string {
  if (value === undefined || value === null || value === '') return RULE.EMPTY
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_RULES[issue.expected] ?? RULE.INVALID
    case 'invalid_value':
      return fill(RULE.ONE_OF, { values: issue.values.map(String).join(', ') })
    case 'too_small':
      return issue.inclusive ? RULE.INVALID : fill(RULE.GREATER_THAN, { minimum: String(issue.minimum) })
    case 'custom':
      return issue.message
    default:
      return RULE.INVALID
  }
}

/** One line per failing rule, in schema order, without duplicates. */
function formatIssues(issues: readonly Issue[], input: unknown, prefix: readonly PropertyKey[] = []): string[] {
  const lines = issues.map(issue => {
    const path = [...prefix, ...issue.path]
    return `${path.map(String).join('.')} ${rule(issue, valueAt(input, issue.path))}`
  })
  return [...new Set(lines)]
}

/** Result of validating one part of a request: the typed value, or the spec's lines. */
export type Checked<T> = { ok: true; value: T } | { ok: false; messages: string[] }

/** Keeps only the lines of failed checks. */
export const failures = (...results: Checked<unknown>[]): string[] => results.flatMap(r => (r.ok ? [] : r.messages))

/** Parses `input` with `schema`; on failure returns the formatted lines. */
export function check<S extends z.ZodType>(schema: S, input: unknown): Checked<z.output<S>> {
  const result = schema.safeParse(input)
  if (result.success) return { ok: true, value: result.data }
  return { ok: false, messages: formatIssues(result.error.issues, input) }
}
