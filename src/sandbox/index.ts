/**
 * @module sandbox
 * Public entry of the platform sandbox for tests, benchmarks and the demo.
 */
export { createSandbox } from './server.js'
export { silenceLibsignalChatter } from './quiet-libsignal.js'
export type { DeviceRecord } from './device-ledger.js'
export type { Sandbox, SandboxOptions, SandboxTrust } from './server.js'
export type * from './types.js'
