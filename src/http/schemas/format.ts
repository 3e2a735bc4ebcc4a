/**
 * @module http/schemas/format
 * Turns zod issues into the spec's validation lines (`<path> should not be empty`, `<path> must be a string`, ...).
 * Paths are joined with a dot (`image.url`). A missing, null or empty value always reads `should not be empty`,
 * whatever rule zod tripped on. Custom refinements carry only the rule (`must not be 0`); the path is added here.
 */
import type { z } from 'zod'

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

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  object: 'an object',
  boolean: 'a boolean',
  array: 'an array',
}

function rule(issue: Issue, value: unknown): string {
  if (value === undefined || value === null || value === '') return 'should not be empty'
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected] ?? `a ${issue.expected}`}`
    case 'invalid_value':
      return `must be one of the following values: ${issue.values.map(String).join(', ')}`
    case 'too_small':
      return issue.inclusive ? `must not be less than ${String(issue.minimum)}` : `must be greater than ${String(issue.minimum)}`
    case 'too_big':
      return issue.inclusive ? `must not be greater than ${String(issue.maximum)}` : `must be less than ${String(issue.maximum)}`
    case 'custom':
      return issue.message
    default:
      return 'is invalid'
  }
}

/** One line per failing rule, in schema order, without duplicates. */
export function formatIssues(issues: readonly Issue[], input: unknown, prefix: readonly PropertyKey[] = []): string[] {
  const lines = issues.map(issue => {
    const path = [...prefix, ...issue.path]
    return `${path.map(String).join('.')} ${rule(issue, valueAt(input, issue.path))}`
  })
  return [...new Set(lines)]
}

/** Result of validating one part of a request: the typed value, or the spec's lines. */
export type Checked<T> = { ok: true; value: T } | { ok: false; messages: string[] }

/** Parses `input` with `schema`; on failure returns the formatted lines. */
export function check<S extends z.ZodType>(schema: S, input: unknown): Checked<z.output<S>> {
  const result = schema.safeParse(input)
  if (result.success) return { ok: true, value: result.data }
  return { ok: false, messages: formatIssues(result.error.issues, input) }
}
