/**
 * Reads Prometheus text exposition the way a scraper does: `name{label="v",...} value` lines, comments skipped.
 */
export interface Series {
  name: string
  labels: Record<string, string>
  value: number
}

export function parseProm(text: string): Series[] {
  const series: Series[] = []
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m) continue
    const labels: Record<string, string> = {}
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!
    series.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return series
}

/** Sum of the series named `name` whose labels include `labels`. */
export function sumOf(all: Series[], name: string, labels: Record<string, string> = {}): number {
  return all
    .filter(s => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0)
}

export function has(all: Series[], name: string, labels: Record<string, string> = {}): boolean {
  return all.some(s => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
}
