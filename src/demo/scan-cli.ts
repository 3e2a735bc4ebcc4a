/**
 * `npm run demo:scan -- <id> <session-id> [--phone 15550000001] [--gateway URL] [--sandbox URL]`: a simulated
 * phone of the sandbox scans the session's current QR (see `scan.ts`). Defaults match `npm run demo`.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_GATEWAY_URL, DEFAULT_SANDBOX_URL, DEMO_PHONE } from './defaults.js'
import { scanSession } from './scan.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    phone: { type: 'string', default: DEMO_PHONE },
    gateway: { type: 'string', default: DEFAULT_GATEWAY_URL },
    sandbox: { type: 'string', default: DEFAULT_SANDBOX_URL },
  },
})
const [id, sessionId] = positionals
if (!id || !sessionId) {
  console.error('usage: npm run demo:scan -- <id> <session-id> [--phone N] [--gateway URL] [--sandbox URL]')
  process.exit(2)
}
try {
  const me = await scanSession({ gatewayUrl: values.gateway, sandboxUrl: values.sandbox, id, sessionId, phone: values.phone })
  console.log(`connected: ${me.generatedId} (${me.name})`)
} catch (err) {
  console.error(`scan failed: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
}
