/**
 * @module sandbox/main
 * CLI: `npm run sandbox -- [--port 7800] [--world FILE] [--qr-refs N] [--state FILE] [--wrong-chain-key]
 * [--wrong-account-signature] [--strict-channel-posts] [--min-client-version a.b.c]`. Serves the platform sandbox on loopback until interrupted.
 * The fault flags (or env SANDBOX_WRONG_CHAIN_KEY=1 / SANDBOX_WRONG_ACCOUNT_SIGNATURE=1 /
 * SANDBOX_STRICT_CHANNEL_POSTS=1) start it with those fault switches on. `--min-client-version` (or env
 * SANDBOX_MIN_CLIENT_VERSION) refuses older web clients with 405 and publishes that version in GET /trust.
 */
import { whenParentGone } from '../parent-watch.js'
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import pino from 'pino'
import { parseClientVersion } from './client-version.js'
import { silenceLibsignalChatter } from './quiet-libsignal.js'
import { createSandbox } from './server.js'
import type { WorldPatch } from './types.js'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '7800' },
    world: { type: 'string' },
    'qr-refs': { type: 'string' },
    'log-level': { type: 'string', default: process.env.LOG_LEVEL ?? 'info' },
    'wrong-chain-key': { type: 'boolean', default: process.env.SANDBOX_WRONG_CHAIN_KEY === '1' },
    'wrong-account-signature': { type: 'boolean', default: process.env.SANDBOX_WRONG_ACCOUNT_SIGNATURE === '1' },
    // channels refuse location and contact posts (error 400); off by default, the live platform's answer is unverified
    'strict-channel-posts': { type: 'boolean', default: process.env.SANDBOX_STRICT_CHANNEL_POSTS === '1' },
    // loads the paired accounts from this file when it exists, writes them back on exit (state-file.ts)
    state: { type: 'string', default: process.env.SANDBOX_STATE_FILE },
    // older web clients are refused at login with 405, as the platform refuses them (client-version.ts)
    'min-client-version': { type: 'string', default: process.env.SANDBOX_MIN_CLIENT_VERSION },
  },
})

const minText = values['min-client-version']
const minClientVersion = minText === undefined ? undefined : parseClientVersion(minText)
if (minText !== undefined && !minClientVersion) {
  console.error(`--min-client-version must be a.b.c (three integers), not ${JSON.stringify(minText)}`)
  process.exit(2)
}

silenceLibsignalChatter()
const logger = pino({ level: values['log-level'] })
const world = values.world ? (JSON.parse(await readFile(values.world, 'utf8')) as WorldPatch) : undefined
const sandbox = await createSandbox({
  port: Number(values.port),
  world,
  logger,
  faults: {
    ...(values['wrong-chain-key'] ? { wrongChainKey: true } : {}),
    ...(values['wrong-account-signature'] ? { wrongAccountSignature: true } : {}),
    ...(values['strict-channel-posts'] ? { strictChannelPosts: true } : {}),
  },
  ...(values['qr-refs'] ? { qrRefs: Number(values['qr-refs']) } : {}),
  ...(values.state ? { stateFile: values.state } : {}),
  ...(minClientVersion ? { minClientVersion } : {}),
  ...(process.env.SANDBOX_LID_DEVICE_ANSWERS === '0' ? { lidDeviceAnswers: false } : {}),
})
logger.info(
  { url: sandbox.url, wsUrl: sandbox.wsUrl, mediaPort: sandbox.mediaPort },
  `sandbox ready: SANDBOX_URL=${sandbox.url}`,
)
if (values['wrong-chain-key'] || values['wrong-account-signature']) {
  logger.warn(
    { wrongChainKey: values['wrong-chain-key'], wrongAccountSignature: values['wrong-account-signature'] },
    'signature faults on: a checking client refuses this sandbox (DELETE /faults turns them off)',
  )
}

const stop = (): void => {
  setTimeout(() => process.exit(1), 15_000).unref() // a connection that will not close must not keep us alive
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
// started by npm run demo: its end, even by kill -9, stops the sandbox too, its state saved (parent-watch.ts)
whenParentGone(stop)
