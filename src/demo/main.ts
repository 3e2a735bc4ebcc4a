/**
 * `npm run demo [-- --verbose]`: the whole product on a laptop with no phone and no internet. Starts the platform
 * sandbox with its demo world and the gateway pointed at it, creates nothing, and prints a guided tour (`tour.ts`):
 * a curl line per endpoint, the QR page, and how a simulated phone scans the QR. Ctrl+C stops both.
 *
 * PORT (default 3000), SANDBOX_PORT (default 7800) and DATA_DIR (default ./data/demo) move it. Both processes keep
 * their state in DATA_DIR (the gateway its sessions, the sandbox its paired phones: `sandbox-state.json`), so a
 * restarted demo brings its paired sessions back connected, and log to files there (`--verbose`: to the terminal
 * too). The demo says it cannot start, in one line, before it starts anything (ports taken, a bad setting), and a
 * start that fails, or is interrupted, stops whatever it had started.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadSettings } from '../gateway-settings.js'
import { DemoChildren } from './children.js'
import { DEFAULT_GATEWAY_PORT, DEFAULT_SANDBOX_PORT } from './defaults.js'
import { servePicture, type PictureServer } from './picture.js'
import { portsProblem } from './ports.js'
import { startGateway, startSandbox, type ChildWatch } from './processes.js'
import { startFailureLine } from './start-failure.js'
import { tourText } from './tour.js'

const refuse = (line: string): never => {
  process.stderr.write(`${line}\n`)
  process.exit(1)
}

let verbose = false
try {
  verbose = parseArgs({ options: { verbose: { type: 'boolean', default: false } } }).values.verbose
} catch (err) {
  refuse(`${err instanceof Error ? err.message : String(err)}\nusage: npm run demo [-- --verbose]`)
}
const sandboxPort = process.env.SANDBOX_PORT ?? String(DEFAULT_SANDBOX_PORT)
const gatewayPort = process.env.PORT ?? String(DEFAULT_GATEWAY_PORT)
const dataDir = path.resolve(process.env.DATA_DIR ?? 'data/demo')
const gatewayEnv = {
  DATA_DIR: dataDir,
  MEDIA_ALLOW_PRIVATE_URLS: 'true', // the tour's picture is served on loopback (picture.ts)
  // a session may be given a proxy running on this machine (README: A proxy per session)
  SESSION_PROXY_ALLOW_PRIVATE: 'true',
  PORT: gatewayPort,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
}

// Nothing starts until the gateway's settings are valid and both ports are free: otherwise another program (an
// earlier demo) would answer the checks below, and the tour would describe a gateway that is not this one.
let qrLifetimeMs = 0
try {
  qrLifetimeMs = loadSettings({ ...process.env, ...gatewayEnv }).SESSION_QR_LIFETIME_MS
} catch (err) {
  refuse(`demo: ${err instanceof Error ? err.message : String(err)}`)
}
const taken = await portsProblem([
  { name: 'PORT', value: gatewayPort },
  { name: 'SANDBOX_PORT', value: sandboxPort },
])
if (taken) refuse(`demo: ${taken}`)

try {
  mkdirSync(dataDir, { recursive: true })
} catch (err) {
  refuse(`demo: DATA_DIR ${dataDir} cannot be made: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
}
const logs = { sandbox: path.join(dataDir, 'sandbox.log'), gateway: path.join(dataDir, 'gateway.log') }
const children = new DemoChildren(verbose)
let picture: PictureServer | undefined
let stopping = false
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true
    await children.stopAll()
    await picture?.close()
    process.exit(code)
  }
  return new Promise<never>(() => {}) // the first stop exits
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0))

/** Starts one child; a failed start stops everything started so far, with one line saying why. */
async function start<T>(name: string, logFile: string, launch: (watch: ChildWatch) => Promise<T>): Promise<T> {
  const watch = children.watch(name, logFile)
  try {
    return await launch(watch)
  } catch (err) {
    // stopped mid-start: the launcher failed because stop() ended its child; stop() says nothing and exits 0
    if (!stopping) process.stderr.write(`${startFailureLine(name, err, watch.tail(), logFile)}\n`)
    return stop(1)
  }
}

console.log(`starting the platform sandbox on 127.0.0.1:${sandboxPort} (log: ${logs.sandbox}) ...`)
const sandbox = await start('sandbox', logs.sandbox, watch =>
  startSandbox(Number(sandboxPort), undefined, {
    args: ['--state', path.join(dataDir, 'sandbox-state.json')],
    ...watch,
  }),
)
console.log(`starting the gateway on 127.0.0.1:${gatewayPort} (log: ${logs.gateway}) ...`)
const gateway = await start('gateway', logs.gateway, watch =>
  startGateway({ ...gatewayEnv, SANDBOX_URL: sandbox.url }, [], watch),
)
picture = await servePicture()
children.onUnexpectedExit(({ name, child, logFile }) => {
  process.stderr.write(`demo: the ${name} stopped (${child.exitCode ?? child.signalCode}); its log: ${logFile}\n`)
  void stop(1)
})

console.log(
  tourText({ gatewayUrl: gateway.url, sandboxUrl: sandbox.url, dataDir, logs, pictureUrl: picture.url, qrLifetimeMs }),
)
