/**
 * `npm run demo:scan -- [--phone 15550000001] [--gateway URL] [--sandbox URL] -- <id> <session-id>`: a simulated
 * phone of the sandbox scans the session's current QR (see `scan.ts`). Defaults match `npm run demo`.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_GATEWAY_URL, DEFAULT_SANDBOX_URL, DEMO_PHONE } from './defaults.js'
import { scanSession } from './scan.js'

const USAGE = 'usage: npm run demo:scan -- [--phone N] [--gateway URL] [--sandbox URL] -- <id> <session-id>'

/** The command line, or a one-line reason and the usage (a session id starting with `-` needs the `--`). */
function commandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        phone: { type: 'string', default: DEMO_PHONE },
        gateway: { type: 'string', default: DEFAULT_GATEWAY_URL },
        sandbox: { type: 'string', default: DEFAULT_SANDBOX_URL },
      },
    })
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`)
    process.exit(2)
  }
}

const { values, positionals } = commandLine()
const [id, sessionId] = positionals
if (!id || !sessionId) {
  console.error(USAGE)
  process.exit(2)
}
try {
  const me = await scanSession({
    gatewayUrl: values.gateway,
    sandboxUrl: values.sandbox,
    id,
    sessionId,
    phone: values.phone,
  })
  console.log(`connected: ${me.generatedId} (${me.name})`)
} catch (err) {
  console.error(`scan failed: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
}
