/**
 * @module test/support/processes
 * The process launchers of the system tests and the benches: the real gateway (src/main.ts) and the platform
 * sandbox CLI as child processes on free ports. They are written in src/demo/processes.ts because `npm run demo`
 * starts the same two processes the same way; tests and benches take them from here, so that one place lists what
 * they launch with. Their polling is the tests' waitFor (./wait-for.ts), not the demo's.
 */
export {
  freePort,
  startGateway,
  startSandbox,
  type GatewayProcess,
  type SandboxOptions,
  type SandboxProcess,
} from '../../src/demo/processes.js'
