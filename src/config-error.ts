/**
 * @module config-error
 * Turns zod's issues about the environment into ONE line an operator can act on, e.g.
 * `invalid setting PORT: expected an integer, got "abc"`. `src/main.ts` prints it to stderr and exits 1.
 */
import type { z } from 'zod'

/** Settings whose value must not appear in an error line. */
// a URL may hold a password
const SECRET_SETTINGS = new Set([
  'DATA_KEY',
  'CREATE_SESSION_TOKEN',
  'METRICS_TOKEN',
  'REDIS_URL',
  'CLUSTER_SECRET',
  'SESSION_PROXY_DEFAULT',
])

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** What the setting should have been, in plain words. */
function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `expected one of ${issue.values.map(String).join(', ')}`
    case 'invalid_format':
      return issue.format === 'url' ? 'expected a URL' : `expected a ${issue.format}`
    default:
      // The settings' own messages (see `int` in config.ts) already read "expected ..."; zod's start with a capital.
      return issue.message.charAt(0).toLowerCase() + issue.message.slice(1)
  }
}

/** One line naming every bad setting, what it expects and the value it got. */
export function describeConfigIssues(issues: readonly z.core.$ZodIssue[], env: NodeJS.ProcessEnv): string {
  const parts = issues.map(issue => {
    const key = String(issue.path[0] ?? '?')
    // secrets are never echoed, not even to stderr
    const got = SECRET_SETTINGS.has(key)
      ? `a value of ${String(env[key] ?? '').length} characters`
      : JSON.stringify(env[key] ?? '')
    return `invalid setting ${key}: ${expectation(issue)}, got ${got}`
  })
  return parts.join('; ')
}
