/**
 * @module settings/errors
 * Turns zod's issues about the environment into ONE line an operator can act on, e.g.
 * `invalid setting PORT: expected an integer, got "abc"`. `src/main.ts` prints it to stderr and exits 1. A field
 * its slice marks `secret` (./fields.ts) is never echoed: the line gives its length only.
 */
import type { z } from 'zod'
import { isSecret, type SettingFields } from './fields.js'

export class SettingsError extends Error {
  override name = 'SettingsError'
}

/** What the setting should have been, in plain words. */
function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `expected one of ${issue.values.map(String).join(', ')}`
    case 'invalid_format':
      return issue.format === 'url' ? 'expected a URL' : `expected a ${issue.format}`
    default:
      // The settings' own messages (see `int` in ./fields.ts) already read "expected ..."; zod's start with a capital.
      return issue.message.charAt(0).toLowerCase() + issue.message.slice(1)
  }
}

/** The value of a setting as an error line shows it: quoted, or only its length for a secret. */
export function shownValue(fields: SettingFields, name: string, env: NodeJS.ProcessEnv): string {
  const field = fields[name]
  const raw = env[name] ?? ''
  return field !== undefined && isSecret(field) ? `a value of ${raw.length} characters` : JSON.stringify(raw)
}

/** One line naming every bad setting, what it expects and the value it got. */
export function describeSettingIssues(
  issues: readonly z.core.$ZodIssue[],
  fields: SettingFields,
  env: NodeJS.ProcessEnv,
): string {
  const parts = issues.map(issue => {
    const key = String(issue.path[0] ?? '?')
    return `invalid setting ${key}: ${expectation(issue)}, got ${shownValue(fields, key, env)}`
  })
  return parts.join('; ')
}
