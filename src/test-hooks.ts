/**
 * @module test-hooks
 * Switches only fault tests use, off unless GATEWAY_TEST_HOOKS=true (never set it in production): SIGUSR2 ends
 * shard 0's worker thread the way a crash would, so a test can watch a real process lose one thread and restore
 * its sessions from storage.
 */
import type { Logger } from 'pino'
import type { ShardedSessionSystem } from './actors/main/sharded-system.js'
import { bool, type SliceOf } from './settings/fields.js'

export const TEST_HOOK_SETTINGS = {
  /** Test-only hooks (SIGUSR2 ends one shard's worker thread); never set in production. */
  GATEWAY_TEST_HOOKS: bool(false),
}

export type TestHookSettings = SliceOf<typeof TEST_HOOK_SETTINGS>

export function installTestHooks(settings: TestHookSettings, system: ShardedSessionSystem, logger: Logger): void {
  if (!settings.GATEWAY_TEST_HOOKS) return
  logger.warn('GATEWAY_TEST_HOOKS is on: SIGUSR2 ends a worker thread; never use this in production')
  process.on('SIGUSR2', () => {
    logger.warn({ shard: 0 }, 'test hook: ending the worker thread of shard 0')
    system.terminateShardThread(0).catch(err => logger.error({ err }, 'test hook failed'))
  })
}
