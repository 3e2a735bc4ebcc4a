/**
 * `npm run bench`: every bench script in turn, each in its own process (which starts its own sandbox and gateway),
 * then one combined table from bench/results/*.json. Scripts are found by listing bench/*.ts, so a new bench
 * (e.g. the fleet figures in bench/scale-*.ts) needs no edit here.
 *
 *   npm run bench                    short runs (minutes)
 *   npm run bench -- --long          the issue's full sizes (1,000 sessions, 20-minute soak: about an hour or more)
 *   npm run bench -- soak qr-latency only the named benches (file names without .ts)
 */
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { combinedTable, missedGoals, readReports } from './lib/combine.js'
import { isLong } from './lib/settings.js'

const here = import.meta.dirname
/** Not goals' figures: this runner itself, and the older many-sessions bench (superseded by bench/scale-*.ts); and
 * the chaos run, half an hour of its own that prints one JSON line (`npm run bench:chaos`). */
const NOT_BENCHES = new Set(['run-all', 'many-sessions', 'chaos'])

const wanted = process.argv.slice(2).filter(a => !a.startsWith('--'))
const benches = readdirSync(here)
  .filter(f => f.endsWith('.ts'))
  .map(f => f.slice(0, -3))
  .filter(n => !NOT_BENCHES.has(n) && (wanted.length === 0 || wanted.includes(n)))
  .sort()
if (wanted.length && benches.length !== wanted.length) {
  throw new Error(
    `unknown bench in ${wanted.join(', ')}; known: ${readdirSync(here)
      .filter(f => f.endsWith('.ts'))
      .join(', ')}`,
  )
}

console.log(`${isLong ? 'long' : 'short'} runs of: ${benches.join(', ')}`)
if (!isLong) console.log("(short defaults; `npm run bench -- --long` runs the issue's full sizes)")
const failed: string[] = []
for (const name of benches) {
  console.log(`\n=== ${name} ===`)
  const started = Date.now()
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, `${name}.ts`), ...(isLong ? ['--long'] : [])],
    { stdio: 'inherit' },
  )
  const code = await new Promise<number | null>(resolve => child.on('exit', resolve))
  console.log(
    `=== ${name}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(0)} s ===`,
  )
  if (code !== 0) failed.push(name)
}

const reports = readReports(path.join(here, 'results'))
console.log(`\nAll figures (bench/results/*.json; BENCHMARKS.md explains each):\n${combinedTable(reports)}`)
const missed = missedGoals(reports)
if (missed.length) console.log(`\nGoals missed:\n${missed.map(m => `  ${m}`).join('\n')}`)
if (failed.length) {
  console.log(`\nBenches that failed: ${failed.join(', ')}`)
  process.exitCode = 1
}
