/**
 * @module demo/defaults
 * Where `npm run demo` serves by default, and who lives in the sandbox's built-in demo world.
 */
export const DEFAULT_GATEWAY_PORT = 3000
export const DEFAULT_SANDBOX_PORT = 7800
export const DEFAULT_GATEWAY_URL = `http://127.0.0.1:${DEFAULT_GATEWAY_PORT}`
export const DEFAULT_SANDBOX_URL = `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`

/** Alice: the demo world's phone that scans QRs; Bob: the peer she writes to. */
export const DEMO_PHONE = '15550000001'
export const DEMO_PEER = '15550000002'
export const DEMO_GROUP = '120363000000000001@g.us'
export const DEMO_CHANNEL = '120363000000000009@newsletter'
