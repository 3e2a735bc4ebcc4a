/**
 * Starts the real gateway (src/main.ts, worker threads and all) as a child process on a free port, the way an
 * operator runs it, and stops it with a signal. The demo (main.ts, scan.ts) uses them; the system tests and the benches
 * take the same launchers through test/support/processes.ts.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import https from 'node:https'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { listenError } from './ports.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Whether the child has ended: by itself (exitCode) or by a signal, kill -9 included (exitCode stays null then). */
const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null

export interface GatewayProcess {
  url: string
  child: ChildProcess
  output(): string
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** The kernel's ephemeral range's first port (Linux; elsewhere the IANA range's, which is above ours too). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    if (Number.isInteger(low) && low > 11_000) return low
  } catch {
    /* not Linux */
  }
  return 32_768
}

/** Whether nothing listens on `port` at 127.0.0.1 right now. */
const bindable = async (port: number): Promise<boolean> => (await listenError(port)) === undefined

/**
 * A port on 127.0.0.1 nobody listens on, for a child process to bind a moment later. Picked at random below the
 * kernel's ephemeral range, never with listen(0): a port from that range is also what the kernel hands the next
 * outgoing connection, and a test suite's hundreds of loopback connections once took one in the moment before the
 * child bound it (EADDRINUSE). Two launches can still pick the same port; the launchers below start again on a
 * new one when that happens.
 */
export async function freePort(): Promise<number> {
  const low = 10_000
  const span = ephemeralLow() - low
  for (;;) {
    const port = low + Math.floor(Math.random() * span)
    if (await bindable(port)) return port
  }
}

/**
 * `start(port)` on `given`, or on a free port, picking another up to three times when the child lost its port to
 * another process between the pick and its bind (its output says EADDRINUSE). A port the caller gave is not retried.
 */
export async function onFreePort<T>(given: number | undefined, start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await start(given ?? (await freePort()))
    } catch (err) {
      if (given !== undefined || attempt >= 3 || !String(err).includes('EADDRINUSE')) throw err
    }
  }
}

/**
 * What a caller may learn of a child while it starts: `onSpawn` gets it the moment it exists (the demo stops it if
 * it is itself stopped mid-start), `onOutput` every chunk it writes to stdout or stderr (the demo's log files).
 */
export interface ChildWatch {
  onSpawn?: (child: ChildProcess) => void
  onOutput?: (chunk: Buffer) => void
  /** Start the child with an IPC channel, which it takes as a watch on this process: once this process is gone,
   * however it ended, the child stops (src/parent-watch.ts). */
  exitWithParent?: boolean
}

/** The child's stdio: output piped (kept, and handed to onOutput), with an IPC channel when it is to exit with us. */
const stdioFor = (watch: ChildWatch): StdioOptions =>
  watch.exitWithParent ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe']

/** Keeps the tail of the child's output (enough to explain a failed start, bounded for a child left running for
 * hours) and hands every chunk to `watch.onOutput`. */
function watchOutput(child: ChildProcess, watch: ChildWatch): () => string {
  let out = ''
  const keep = (d: Buffer) => {
    out = (out + d).slice(-65_536)
    watch.onOutput?.(d)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  watch.onSpawn?.(child)
  return () => out
}

/**
 * `nodeArgs`: extra node flags (e.g. `--cpu-prof`, which Node does not take from NODE_OPTIONS). Resolves once the
 * gateway is ready (`/readyz` 200), or with `until: 'listening'` as soon as it answers HTTP at all (`/healthz`),
 * while its shards may still be restoring sessions.
 */
export async function startGateway(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  options: { until?: 'ready' | 'listening' } & ChildWatch = {},
): Promise<GatewayProcess> {
  const given = env.PORT ? Number(env.PORT) : undefined
  return onFreePort(given, port => startGatewayOn(port, env, nodeArgs, options))
}

async function startGatewayOn(
  port: number,
  env: Record<string, string>,
  nodeArgs: string[],
  options: { until?: 'ready' | 'listening' } & ChildWatch,
): Promise<GatewayProcess> {
  const probe = options.until === 'listening' ? '/healthz' : '/readyz'
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(root, 'src/main.ts')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', SHARDS: '2', ...env, PORT: String(port) },
    stdio: stdioFor(options),
  })
  const output = watchOutput(child, options)
  // with TLS_CERT_FILE the gateway serves https; the probe trusts the cluster's CA file, or the certificate itself
  const ca = env.TLS_CERT_FILE ? readFileSync(env.CLUSTER_CA_FILE ?? env.TLS_CERT_FILE) : undefined
  const url = `${ca ? 'https' : 'http'}://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (exited(child)) throw new Error(`gateway exited early (${child.exitCode ?? child.signalCode}):\n${output()}`)
    try {
      // Ready, not just listening: a session created before its shard thread is up would spend part of its QR
      // window waiting for the thread (and tests with short QR lifetimes would see it expire).
      if ((ca ? await httpsStatus(`${url}${probe}`, ca) : (await fetch(`${url}${probe}`)).status) === 200) break
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`gateway did not start:\n${output()}`)
    await new Promise(r => setTimeout(r, 200))
  }
  return {
    url,
    child,
    output,
    async stop(signal = 'SIGTERM') {
      if (exited(child)) return child.exitCode
      child.kill(signal)
      const [code] = await once(child, 'exit')
      return code as number | null
    },
  }
}

/** The status of a GET over https trusting `ca` only. */
function httpsStatus(url: string, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, res => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      .on('error', reject)
  })
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await fn()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => setTimeout(r, 250))
  }
}

export interface SandboxProcess {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

/** `nice` runs the sandbox at that CPU priority (benches use 19, so that a figure about the gateway is not the
 * sandbox taking its cores); `args`, more of its CLI's flags (`--state FILE`). */
export type SandboxOptions = {
  /** CPU priority (nice) of the sandbox process. */
  nice?: number
  /** More command-line arguments for the sandbox. */
  args?: string[]
  /** `--min-client-version a.b.c`: older web clients are refused at login with 405. */
  minClientVersion?: string
} & ChildWatch

/** Starts the platform sandbox CLI (`npm run sandbox`) on the given port (a free one by default). */
export async function startSandbox(
  port?: number,
  world?: string,
  options: SandboxOptions = {},
): Promise<SandboxProcess> {
  return onFreePort(port, p => startSandboxOn(p, world, options))
}

async function startSandboxOn(p: number, world: string | undefined, options: SandboxOptions): Promise<SandboxProcess> {
  const args = ['--import', 'tsx', path.join(root, 'src/sandbox/main.ts'), '--port', String(p), ...(options.args ?? [])]
  if (world) args.push('--world', world)
  if (options.minClientVersion) args.push('--min-client-version', options.minClientVersion)
  const child =
    options.nice === undefined
      ? spawn(process.execPath, args, { cwd: root, stdio: stdioFor(options) })
      : spawn('nice', ['-n', String(options.nice), process.execPath, ...args], { cwd: root, stdio: stdioFor(options) })
  const output = watchOutput(child, options)
  const url = `http://127.0.0.1:${p}`
  await waitFor(`sandbox on ${url}`, async () => {
    if (exited(child)) throw new Error(`sandbox exited early (${child.exitCode ?? child.signalCode}):\n${output()}`)
    const res = await fetch(`${url}/trust`).catch(() => undefined)
    return res?.ok || undefined
  })
  return {
    url,
    child,
    async stop() {
      if (exited(child)) return
      child.kill('SIGTERM')
      await once(child, 'exit')
    },
  }
}
