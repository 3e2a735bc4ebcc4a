/**
 * @module bench/lib/nice-driver
 * Runs one of bench/drivers/*.ts as its own process at nice 19 (a load generator must not take the cores the
 * gateway is measured on), its spec as JSON in argv[2]; resolves with the last JSON line it printed.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'

const DRIVERS = path.join(import.meta.dirname, '..', 'drivers')

export function niceDriver<T = unknown>(file: string, spec: object): { child: ChildProcess; result: Promise<T> } {
  const args = ['-n', '19', process.execPath, '--import', 'tsx', path.join(DRIVERS, file), JSON.stringify(spec)]
  const child = spawn('nice', args, { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout!.on('data', d => {
    out += d
  })
  const result = new Promise<T>((resolve, reject) =>
    child.on('exit', code =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as T)
        : reject(new Error(`${file} exited ${code}`)),
    ),
  )
  return { child, result }
}
