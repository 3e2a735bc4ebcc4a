/** The combined table `npm run bench` ends with. */
import { describe, expect, it } from 'vitest'
import { combinedTable, missedGoals, type ReportFile } from '../../../../bench/lib/combine.js'

const reports: ReportFile[] = [
  {
    name: 'get-session',
    finishedAt: '2026-11-22T05:10:42.000Z',
    figures: [
      { figure: 'GET /session ÷ bare express', value: 0.8612, unit: '×', goal: '≥ 0.8', met: true },
      { figure: 'bare express', value: 5694.4, unit: 'req/s' },
    ],
  },
  {
    name: 'qr-latency',
    finishedAt: '2026-11-22T05:20:00.000Z',
    figures: [{ figure: 'POST /session → QR, median', value: 412, unit: 'ms', goal: '≤ 300 ms', met: false }],
  },
]

describe('combined results table', () => {
  it('lists every figure of every report with its goal, verdict and date', () => {
    const lines = combinedTable(reports).split('\n')
    expect(lines).toHaveLength(2 + 3)
    expect(lines[2]).toMatch(
      /^\| get-session +\| GET \/session ÷ bare express +\| 0\.861 × +\| ≥ 0\.8 ✓ met +\| 2026-11-22 05:10 +\|$/,
    )
    expect(lines[3]).toContain('| 5,694 req/s')
    expect(lines[3]).toContain('| — ')
    expect(lines[4]).toContain('≤ 300 ms ✗ missed')
    // every row as wide as the header: a valid markdown table
    expect(new Set(lines.map(l => l.length)).size).toBe(1)
  })

  it('names only the goals missed', () => {
    expect(missedGoals(reports)).toEqual(['qr-latency: POST /session → QR, median'])
  })
})
