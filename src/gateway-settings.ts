/**
 * @module gateway-settings
 * Every setting of the gateway, read from the environment and validated once at start: the slices each part
 * declares for itself, put together. A bad value in any of them stops the start with one line naming every bad
 * value (settings/errors.ts). The README's Settings table lists every one (test/unit/gateway-settings.test.ts).
 * The slices are put together here, beside main.ts, rather than in settings/: that folder holds only the kinds of
 * setting and the error line, so every part can import it without an arrow running back up to the parts.
 *
 * Only `src/main.ts` sees the whole; it hands each part its slice (`httpSettings(settings)`, ...), and what crosses
 * to a worker thread or into the platform port is the slices those need, nothing more.
 *
 * @example
 * const settings = loadSettings()            // throws SettingsError: invalid setting PORT: expected an integer, got "abc"
 * createApp({ settings: httpAppSettings(settings), ... })
 */
import { z } from 'zod'
import { ACTOR_SETTINGS } from './actors/settings.js'
import { CLUSTER_SETTINGS, checkClusterSettings } from './cluster/settings.js'
import { checkHttpSettings, HTTP_SETTINGS } from './http/settings.js'
import { LOG_SETTINGS } from './logger.js'
import { MEDIA_SETTINGS } from './media/settings.js'
import { PLATFORM_SETTINGS } from './platform/settings.js'
import { PROXY_SETTINGS } from './proxy/proxy-settings.js'
import { STORAGE_SETTINGS } from './storage/settings.js'
import { TEST_HOOK_SETTINGS } from './test-hooks.js'
import { describeSettingIssues, SettingsError } from './settings/errors.js'

/** Every part's slice, in the order the Settings tables of docs/ list them. */
export const SETTING_FIELDS = {
  ...HTTP_SETTINGS,
  ...STORAGE_SETTINGS,
  ...PLATFORM_SETTINGS,
  ...LOG_SETTINGS,
  ...ACTOR_SETTINGS,
  ...MEDIA_SETTINGS,
  ...PROXY_SETTINGS,
  ...TEST_HOOK_SETTINGS,
  ...CLUSTER_SETTINGS,
}

const schema = z.object(SETTING_FIELDS)

export type Settings = z.infer<typeof schema>

/** Every setting's name, for the check of the docs' Settings tables. */
export const SETTING_NAMES: readonly string[] = Object.keys(SETTING_FIELDS)

/** Parses settings; throws a SettingsError whose message is one line naming every bad variable. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = schema.safeParse(env)
  if (!parsed.success) throw new SettingsError(describeSettingIssues(parsed.error.issues, SETTING_FIELDS, env))
  // what no one field can say: values that must fit together
  const problem = checkClusterSettings(parsed.data, env) ?? checkHttpSettings(parsed.data)
  if (problem) throw new SettingsError(problem)
  return parsed.data
}
