/**
 * @module bench/lib/combine
 * The one table `npm run bench` ends with: every figure of every bench/results/<name>.json, goal beside figure,
 * with when each was measured (a bench skipped or failed this time still shows its last figures, dated).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fmt, type Figure } from './results.js'

export interface ReportFile {
  name: string
  finishedAt: string
  settings?: Record<string, unknown>
  figures: Figure[]
}

export function readReports(dir: string): ReportFile[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter(f => f.endsWith('.json'))
    .sort()
    .map(f => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as ReportFile)
    .filter(r => Array.isArray(r.figures)) // chaos.json is one line of figures of its own, not a report
}

const goalCell = (f: Figure) => (f.goal ? `${f.goal} ${f.met ? '✓ met' : '✗ missed'}` : '—')

/** A markdown table: bench | figure | value | goal | measured (date, UTC minutes). */
export function combinedTable(reports: ReportFile[]): string {
  const rows = reports.flatMap(r =>
    r.figures.map(f => [
      r.name,
      f.figure,
      `${fmt(f.value)} ${f.unit}`,
      goalCell(f),
      r.finishedAt.slice(0, 16).replace('T', ' '),
    ]),
  )
  const head = ['bench', 'figure', 'value', 'goal', 'measured (UTC)']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map(r => r[i]!.length)))
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`
  return [line(head), line(widths.map(w => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

/** Goals missed, as "bench: figure" lines (empty when every goal is met). */
export function missedGoals(reports: ReportFile[]): string[] {
  return reports.flatMap(r => r.figures.filter(f => f.goal && !f.met).map(f => `${r.name}: ${f.figure}`))
}
