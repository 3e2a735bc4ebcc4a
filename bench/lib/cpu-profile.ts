/**
 * @module bench/lib/cpu-profile
 * Where the CPU went, from V8 `.cpuprofile` files (node --cpu-prof writes one per thread): self time summed by
 * package (node_modules/<name>, the gateway's own src/<area>, node internals) and by function, so a bench can
 * print what bounds a figure. Also a CLI: `tsx bench/lib/cpu-profile.ts [--from µs --to µs] FILE...`.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }
interface Profile { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] }

/** A stretch of the monotonic clock in µs (`process.hrtime.bigint() / 1000n`, the profiles' own clock). */
export interface Window { fromUs: number; toUs: number }

export interface CpuShare { name: string; ms: number; share: number }

/** `node_modules/@scope/pkg/...` → `@scope/pkg`; `.../src/actors/x.ts` → `src/actors`; else `(node)` / the name. */
function area(url: string, functionName: string): string {
  const mod = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (mod) return mod[1]!
  const own = /\/(src\/[^/]+|bench)\//.exec(url)
  if (own) return own[1]!
  if (url.startsWith('node:') || url === '') return functionName.startsWith('(') ? functionName : '(node internals)'
  return url
}

/** Self time per area and per function over the given profiles (within `window` if given), largest first. */
export function summarize(files: string[], top = 20, window?: Window): { total: number; areas: CpuShare[]; functions: CpuShare[] } {
  const areas = new Map<string, number>()
  const functions = new Map<string, number>()
  let total = 0
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
    const byId = new Map(profile.nodes.map(n => [n.id, n]))
    let at = profile.startTime
    profile.samples.forEach((id, i) => {
      at += profile.timeDeltas[i] ?? 0
      if (window && (at < window.fromUs || at > window.toUs)) return
      const node = byId.get(id)
      if (!node) return
      const ms = (profile.timeDeltas[i] ?? 0) / 1000
      if (node.callFrame.functionName === '(idle)') return
      total += ms
      const { functionName, url, lineNumber } = node.callFrame
      const a = area(url, functionName)
      areas.set(a, (areas.get(a) ?? 0) + ms)
      const fn = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}`
      functions.set(fn, (functions.get(fn) ?? 0) + ms)
    })
  }
  const rank = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([name, ms]) => ({ name, ms, share: total ? ms / total : 0 }))
  return { total, areas: rank(areas), functions: rank(functions) }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const opt = (name: string) => { const i = args.indexOf(name); return i < 0 ? undefined : Number(args.splice(i, 2)[1]) }
  const fromUs = opt('--from')
  const toUs = opt('--to')
  const { total, areas, functions } = summarize(args, 25, fromUs !== undefined && toUs !== undefined ? { fromUs, toUs } : undefined)
  const line = (s: CpuShare) => `${(s.share * 100).toFixed(1).padStart(5)}%  ${s.ms.toFixed(0).padStart(7)} ms  ${s.name}`
  console.log(`busy: ${total.toFixed(0)} ms\n\nby package / area:`)
  areas.forEach(s => console.log(line(s)))
  console.log('\nby function:')
  functions.forEach(s => console.log(line(s)))
}
