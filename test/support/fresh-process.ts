/**
 * Runs an ES module body in a fresh Node process with tsx, from the project root: for behaviour that depends on
 * what a thread loads first (a module load hook acts only on modules imported after it), which this test runner's
 * process has long since loaded. Returns what the body printed last, parsed as JSON.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export function inFreshProcess(body: string): unknown {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', body], {
    cwd: root,
    encoding: 'utf8',
  })
  return JSON.parse(out.trim().split('\n').at(-1)!)
}
