/**
 * @module bench/lib/cpu-profile
 * Where the CPU went: reads the V8 `.cpuprofile` files `node --cpu-prof` writes (one per thread: the main thread
 * and every worker) and sums self time per function and per package, over all threads. Idle time is counted apart,
 * so shares are of busy time. Sample times are on the machine's monotonic clock, the one `process.hrtime` reads in
 * any process, so a bench can keep only the samples of its measured phases (`windows`), leaving start-up out.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

export interface CpuProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
export interface CpuProfile {
  nodes: CpuProfileNode[]
  /** Microseconds, monotonic clock (= process.hrtime.bigint() / 1000n in any process on the machine). */
  startTime: number
  samples: number[]
  /** Microseconds since the previous sample; the time of sample i is timeDeltas[i]. */
  timeDeltas: number[]
}

export interface CpuShare {
  name: string
  ms: number
  share: number
}
export interface CpuSummary {
  threads: number
  busyMs: number
  idleMs: number
  /** Self time by the package whose code ran. */
  byPackage: CpuShare[]
  /** Self time by the nearest package up the stack, so Node built-ins (crypto, streams) count for their caller. */
  byCaller: CpuShare[]
  byFunction: CpuShare[]
}

/** Frames that do work on someone else's behalf: Node's own JS and native code. */
const BORROWED = new Set(['node (built-in)', '(native)'])

/** V8's pseudo-frames, which are their own category. */
const PSEUDO = new Set(['(program)', '(garbage collector)', '(idle)', '(root)'])

/** The package (node_modules name), `node:` internals, or the project folder (src/actors) a frame belongs to. */
export function packageOf(url: string, functionName: string, root = process.cwd()): string {
  if (PSEUDO.has(functionName) && !url) return functionName
  if (!url) return '(native)'
  if (url.startsWith('node:')) return 'node (built-in)'
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url
  const nm = file.lastIndexOf('/node_modules/')
  if (nm >= 0) {
    const parts = file.slice(nm + '/node_modules/'.length).split('/')
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  const rel = path.relative(root, file)
  if (rel.startsWith('..')) return file
  const dirs = rel.split(path.sep)
  return dirs.length > 2 ? dirs.slice(0, 2).join('/') : rel
}

/** Sums self time over the profiles and returns the `top` packages and functions by busy share. */
export function summariseProfiles(
  profiles: CpuProfile[],
  opts: { top?: number; root?: string; windows?: { fromUs: number; toUs: number }[] } = {},
): CpuSummary {
  const top = opts.top ?? 10
  const byPackage = new Map<string, number>()
  const byCaller = new Map<string, number>()
  const byFunction = new Map<string, number>()
  let idleUs = 0
  let busyUs = 0
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map(n => [n.id, n]))
    const parent = new Map<number, number>()
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
    const pkgOf = (id: number) => {
      const f = nodes.get(id)!.callFrame
      return packageOf(f.url, f.functionName, opts.root)
    }
    const callers = new Map<number, string>()
    const callerOf = (id: number): string => {
      let caller = callers.get(id)
      if (caller === undefined) {
        caller = pkgOf(id)
        for (let up = parent.get(id); BORROWED.has(caller) && up !== undefined; up = parent.get(up)) {
          const p = pkgOf(up)
          if (!BORROWED.has(p) && p !== '(root)') caller = p
        }
        callers.set(id, caller)
      }
      return caller
    }
    let at = profile.startTime
    profile.samples.forEach((id, i) => {
      const us = profile.timeDeltas[i] ?? 0
      at += us
      if (opts.windows && !opts.windows.some(w => at >= w.fromUs && at <= w.toUs)) return
      const frame = nodes.get(id)?.callFrame
      if (!frame || us <= 0) return
      if (frame.functionName === '(idle)') {
        idleUs += us
        return
      }
      busyUs += us
      const pkg = packageOf(frame.url, frame.functionName, opts.root)
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us)
      const caller = callerOf(id)
      byCaller.set(caller, (byCaller.get(caller) ?? 0) + us)
      const fn = PSEUDO.has(frame.functionName)
        ? frame.functionName
        : `${frame.functionName || '(anonymous)'} ${pkg}:${frame.lineNumber + 1}`
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + us)
    })
  }
  const rank = (m: Map<string, number>): CpuShare[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: busyUs ? us / busyUs : 0 }))
  return {
    threads: profiles.length,
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    byPackage: rank(byPackage),
    byCaller: rank(byCaller),
    byFunction: rank(byFunction),
  }
}

/** Now on the profiles' clock, for `windows`. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n)

/** Every `.cpuprofile` in `dir` (one per thread of the profiled process). */
export function readProfiles(dir: string): CpuProfile[] {
  return readdirSync(dir)
    .filter(f => f.endsWith('.cpuprofile'))
    .map(f => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CpuProfile)
}

/** One line per entry: "  41.2%  1,234 ms  name". */
export function formatShares(title: string, shares: CpuShare[]): string {
  return [
    title,
    ...shares.map(
      s =>
        `  ${(s.share * 100).toFixed(1).padStart(5)}%  ${Math.round(s.ms).toLocaleString('en-US').padStart(7)} ms  ${s.name}`,
    ),
  ].join('\n')
}
