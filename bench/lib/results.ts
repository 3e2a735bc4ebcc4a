/**
 * @module bench/lib/results
 * How every bench script reports: a table of figures on stdout (goal beside figure) and the same rows in
 * `bench/results/<name>.json`, so BENCHMARKS.md and the closing note quote one source. Medians over repeated runs
 * and ratios measured in the same run are computed by the scripts; this module only records and prints.
 *
 * @example
 * const report = new BenchReport('get-session')
 * report.add({ figure: 'GET /session req/s, gateway ÷ bare express', value: 0.86, unit: 'ratio', goal: '≥ 0.8', met: true })
 * report.finish()
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface Figure {
  /** What was measured, in words an operator understands. */
  figure: string
  value: number
  unit: string
  /** The goal as written in the issue (e.g. '≤ 3 MB'); absent for figures that are only measured. */
  goal?: string
  /** Whether the goal is met; absent when there is no goal. */
  met?: boolean
  /** How it was measured: runs, sessions, anything needed to read the value. */
  detail?: string
}

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'results')

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(s.length * p))]!
}

/** A figure as printed: whole numbers with thousands separators from 100 up, else 3 significant digits. */
export const fmt = (v: number): string =>
  !Number.isFinite(v)
    ? String(v)
    : Math.abs(v) >= 100
      ? Math.round(v).toLocaleString('en-US')
      : String(Number(v.toPrecision(3)))

export class BenchReport {
  readonly #rows: Figure[] = []
  readonly #notes: Record<string, unknown> = {}
  readonly #started = new Date()
  constructor(
    readonly name: string,
    readonly settings: Record<string, unknown> = {},
  ) {}

  add(row: Figure): void {
    this.#rows.push(row)
    const goal = row.goal ? `  (goal ${row.goal}: ${row.met ? 'met' : 'MISSED'})` : ''
    console.log(`  ${row.figure}: ${fmt(row.value)} ${row.unit}${goal}`)
  }

  /** Extra data for the JSON (e.g. a CPU profile summary), under `notes.<key>`; not printed. */
  note(key: string, value: unknown): void {
    this.#notes[key] = value
  }

  /** Prints the table and writes bench/results/<name>.json. */
  finish(): Figure[] {
    const widths = [0, 0, 0]
    const cells = this.#rows.map(r => [
      r.figure,
      `${fmt(r.value)} ${r.unit}`,
      r.goal ? `${r.goal} ${r.met ? '✓' : '✗'}` : '—',
    ])
    for (const c of [['figure', 'value', 'goal'], ...cells])
      c.forEach((v, i) => {
        widths[i] = Math.max(widths[i]!, v.length)
      })
    const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`
    console.log(`\n${this.name}`)
    console.log(line(['figure', 'value', 'goal']))
    console.log(line(widths.map(w => '-'.repeat(w))))
    for (const c of cells) console.log(line(c))
    mkdirSync(resultsDir, { recursive: true })
    writeFileSync(
      path.join(resultsDir, `${this.name}.json`),
      `${JSON.stringify(
        {
          name: this.name,
          startedAt: this.#started.toISOString(),
          finishedAt: new Date().toISOString(),
          machine: {
            cpus: os.cpus().length,
            cpuModel: os.cpus()[0]?.model,
            memGiB: Math.round(os.totalmem() / 2 ** 30),
            node: process.version,
          },
          settings: this.settings,
          figures: this.#rows,
          ...(Object.keys(this.#notes).length ? { notes: this.#notes } : {}),
        },
        null,
        2,
      )}\n`,
    )
    return this.#rows
  }
}
