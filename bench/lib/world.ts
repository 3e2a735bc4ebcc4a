/**
 * @module bench/lib/world
 * One bench's processes: the platform sandbox and the real gateway, each its own process on loopback, with a temp
 * data folder; `stop()` ends both and removes the folder (also on Ctrl-C).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startGateway, startSandbox, type GatewayProcess, type SandboxProcess } from '../../src/demo/processes.js'

export interface BenchWorld {
  sandbox: SandboxProcess
  gateway: GatewayProcess
  dataDir: string
  stop(): Promise<void>
}

/** Gateway settings every bench wants: private (loopback) media URLs allowed, no POST /session rate limit. */
const BENCH_ENV = { MEDIA_ALLOW_PRIVATE_URLS: 'true', SESSION_CREATE_PER_MINUTE: '0' }

export async function startWorld(name: string, gatewayEnv: Record<string, string> = {}, nodeArgs: string[] = []): Promise<BenchWorld> {
  const sandbox = await startSandbox()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`))
  let gateway: GatewayProcess
  try {
    gateway = await startGateway({ SANDBOX_URL: sandbox.url, DATA_DIR: dataDir, ...BENCH_ENV, ...gatewayEnv }, nodeArgs)
  } catch (err) {
    await sandbox.stop()
    rmSync(dataDir, { recursive: true, force: true })
    throw err
  }
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await gateway.stop().catch(() => undefined)
    await sandbox.stop().catch(() => undefined)
    rmSync(dataDir, { recursive: true, force: true })
  }
  process.once('SIGINT', () => void stop().then(() => process.exit(130)))
  return { sandbox, gateway, dataDir, stop }
}

/** Runs `body` in a fresh world and always stops it; prints the gateway's last output when the bench fails. */
export async function withWorld<T>(name: string, gatewayEnv: Record<string, string>, body: (w: BenchWorld) => Promise<T>, nodeArgs: string[] = []): Promise<T> {
  const world = await startWorld(name, gatewayEnv, nodeArgs)
  try {
    return await body(world)
  } catch (err) {
    console.error(world.gateway.output().slice(-4000))
    throw err
  } finally {
    await world.stop()
  }
}
