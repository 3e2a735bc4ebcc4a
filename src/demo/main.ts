/**
 * `npm run demo`: the whole product on a laptop with no phone and no internet. Starts the platform sandbox and the
 * gateway (pointed at it), creates a session, shows its QR in the terminal, lets a simulated phone scan it, and
 * prints curl commands to try. Ctrl+C stops both.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline/promises'
import QRCode from 'qrcode'
import { decodeQrPng } from './qr-decode.js'
import { startGateway, startSandbox, waitFor } from './processes.js'

const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 7800)
const GATEWAY_PORT = process.env.PORT ?? '3000'
const PHONE = '15550000001' // Alice in the sandbox's built-in demo world
const PEER = '15550000002' // Bob

const dataDir = path.resolve(process.env.DATA_DIR ?? 'data/demo')
mkdirSync(dataDir, { recursive: true })

console.log(`starting the platform sandbox on 127.0.0.1:${SANDBOX_PORT} ...`)
const sandbox = await startSandbox(SANDBOX_PORT)
console.log(`starting the gateway on 127.0.0.1:${GATEWAY_PORT} (DATA_DIR=${dataDir}) ...`)
const gateway = await startGateway({
  SANDBOX_URL: sandbox.url, DATA_DIR: dataDir, MEDIA_ALLOW_PRIVATE_URLS: 'true', PORT: GATEWAY_PORT, LOG_LEVEL: 'info',
})

const stop = async () => { await gateway.stop(); await sandbox.stop(); process.exit(0) }
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())

const G = gateway.url
const created = await (await fetch(`${G}/session`, { method: 'POST' })).json() as { id: string; sessionId: string }
const h = `-H 'id: ${created.id}' -H 'session-id: ${created.sessionId}'`
console.log(`\nPOST ${G}/session →`, created)

const get = async () => (await fetch(`${G}/session`, { headers: { id: created.id, 'session-id': created.sessionId } })).json() as
  Promise<{ qrcode: string; isConnected: boolean; generatedId: string; name: string }>
const png = await waitFor('the first QR', async () => (await get()).qrcode || undefined)
const qr = decodeQrPng(png)
console.log('\nGET /session now carries the QR (base64 PNG). Decoded, it reads:\n')
console.log(await QRCode.toString(qr, { type: 'terminal', small: true }))

if (process.stdin.isTTY) {
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  await rl.question(`Press Enter and the simulated phone ${PHONE} (Alice) scans it... `)
  rl.close()
}
const scan = await fetch(`${sandbox.url}/scan`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ qr, phone: PHONE }),
})
console.log(`POST ${sandbox.url}/scan →`, scan.status, await scan.text())
const session = await waitFor('the connection', async () => { const s = await get(); return s.isConnected ? s : undefined })
console.log(`\nconnected: generatedId ${session.generatedId}, name "${session.name}"\n`)

console.log(`Try it (the session stays up until Ctrl+C):

  curl -s ${G}/session ${h}
  curl -s -X POST ${G}/message ${h} -H 'content-type: application/json' \\
       -d '{"phone":"${PEER}","type":"text","text":"hello from the gateway"}'
  curl -s -X POST ${G}/typing ${h} -H 'content-type: application/json' -d '{"phone":"${PEER}"}'
  curl -s ${G}/group ${h}
  curl -s ${G}/channel ${h}

  and read what Bob's simulated phone decrypted:
  curl -s ${sandbox.url}/accounts/${PEER}/inbox
`)
