/**
 * @module sandbox/main
 * CLI: `npm run sandbox -- [--port 7800] [--world FILE] [--qr-refs N] [--state FILE]`. Serves the platform sandbox on loopback
 * until interrupted.
 */
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import pino from 'pino'
import { silenceLibsignalChatter } from './quiet-libsignal.js'
import { createSandbox } from './server.js'
import type { WorldPatch } from './types.js'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '7800' },
    world: { type: 'string' },
    'qr-refs': { type: 'string' },
    'log-level': { type: 'string', default: process.env.LOG_LEVEL ?? 'info' },
    // loads the paired accounts from this file when it exists, writes them back on exit (state-file.ts)
    state: { type: 'string', default: process.env.SANDBOX_STATE_FILE },
  },
})

silenceLibsignalChatter()
const logger = pino({ level: values['log-level'] })
const world = values.world ? (JSON.parse(await readFile(values.world, 'utf8')) as WorldPatch) : undefined
const sandbox = await createSandbox({
  port: Number(values.port),
  world,
  logger,
  ...(values['qr-refs'] ? { qrRefs: Number(values['qr-refs']) } : {}),
  ...(values.state ? { stateFile: values.state } : {}),
})
logger.info({ url: sandbox.url, wsUrl: sandbox.wsUrl, mediaPort: sandbox.mediaPort }, `sandbox ready: SANDBOX_URL=${sandbox.url}`)

const stop = (): void => {
  setTimeout(() => process.exit(1), 15_000).unref() // a connection that will not close must not keep us alive
  sandbox.close().then(() => process.exit(0), () => process.exit(1))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
