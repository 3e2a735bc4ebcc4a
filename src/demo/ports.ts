/**
 * @module demo/ports
 * The demo checks its ports before it starts anything: a port already held (another demo, most often) would
 * otherwise be answered by that other program's processes, and the tour would describe a gateway that is not its
 * own. One line names the port and the variable that moves it.
 */
import { createServer } from 'node:net'

export interface DemoPort {
  /** The environment variable that sets it (`PORT`, `SANDBOX_PORT`). */
  name: string
  value: string
}

/** The error code of listening on `port` at 127.0.0.1 right now (`EADDRINUSE`, `EACCES`), or undefined when free. */
export function listenError(port: number): Promise<string | undefined> {
  return new Promise(resolve => {
    const probe = createServer()
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(undefined)))
  })
}

const WHY: Record<string, string> = {
  EADDRINUSE: 'is taken: another program listens there (another demo?); stop it, or',
  EACCES: 'needs privileges this user lacks (ports below 1024);',
}

/** The one line that says why the demo cannot start on these ports, or undefined when it can. */
export async function portsProblem(ports: DemoPort[]): Promise<string | undefined> {
  for (const { name, value } of ports) {
    const port = Number(value)
    if (!/^\d+$/.test(value) || port < 1 || port > 65_535) return `${name}=${value} is not a port (1 to 65535)`
    const code = await listenError(port)
    if (code === undefined) continue
    const why = WHY[code] ?? `cannot be listened on (${code});`
    return `port ${port} on 127.0.0.1 (${name}) ${why} choose another: ${name}=<port> npm run demo`
  }
  return undefined
}
