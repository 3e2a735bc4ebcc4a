/**
 * `npm run demo`: the whole product on a laptop with no phone and no internet. Starts the platform sandbox with
 * its demo world and the gateway pointed at it, creates nothing, and prints a guided tour (`tour.ts`): a curl line
 * per endpoint, the QR page, and how a simulated phone scans the QR. Ctrl+C stops both.
 *
 * PORT (default 3000), SANDBOX_PORT (default 7800) and DATA_DIR (default ./data/demo) move it.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { DEFAULT_GATEWAY_PORT, DEFAULT_SANDBOX_PORT } from './defaults.js'
import { startGateway, startSandbox } from './processes.js'
import { tourText } from './tour.js'

const sandboxPort = Number(process.env.SANDBOX_PORT ?? DEFAULT_SANDBOX_PORT)
const gatewayPort = process.env.PORT ?? String(DEFAULT_GATEWAY_PORT)
const dataDir = path.resolve(process.env.DATA_DIR ?? 'data/demo')
mkdirSync(dataDir, { recursive: true })

console.log(`starting the platform sandbox on 127.0.0.1:${sandboxPort} ...`)
const sandbox = await startSandbox(sandboxPort)
console.log(`starting the gateway on 127.0.0.1:${gatewayPort} ...`)
const gateway = await startGateway({
  SANDBOX_URL: sandbox.url,
  DATA_DIR: dataDir,
  MEDIA_ALLOW_PRIVATE_URLS: 'true',
  // a session may be given a proxy running on this machine (README: A proxy per session)
  SESSION_PROXY_ALLOW_PRIVATE: 'true',
  PORT: gatewayPort,
  LOG_LEVEL: 'info',
})

const stop = async () => {
  await gateway.stop()
  await sandbox.stop()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())

console.log(tourText({ gatewayUrl: gateway.url, sandboxUrl: sandbox.url, dataDir }))
