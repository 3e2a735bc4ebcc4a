/**
 * @module bench/lib/proc
 * What a bench reads about a process from /proc (Linux): resident memory and CPU time (all threads), so figures
 * come from the gateway process itself and not from the load generator.
 */
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'

/** Resident set size in MB. */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
}

/** The name and user + system CPU seconds in a `/proc/.../stat` line (a process's or one of its threads'). */
function readStat(file: string): { name: string; seconds: number } {
  const stat = readFileSync(file, 'utf8')
  // fields after the command name (which may hold spaces) start at ") "; utime and stime are fields 14 and 15
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticksPerSecond = 100 // USER_HZ on Linux
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    seconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond,
  }
}

const sleep = (s: number) => new Promise(resolve => setTimeout(resolve, s * 1000))

/** Mean RSS (MB) of five samples a second apart. */
export async function meanRssMb(pid: number): Promise<number> {
  let sum = 0
  for (let i = 0; i < 5; i++) {
    sum += rssMb(pid)
    if (i < 4) await sleep(1)
  }
  return sum / 5
}

/** CPU the process uses over the next `seconds`, as % of one core. */
export async function cpuPercentOver(pid: number, seconds: number): Promise<number> {
  const c0 = cpuSeconds(pid)
  const t0 = performance.now()
  await sleep(seconds)
  return ((cpuSeconds(pid) - c0) / ((performance.now() - t0) / 1000)) * 100
}

/** User + system CPU seconds the process has used so far (every thread). */
export function cpuSeconds(pid: number): number {
  return readStat(`/proc/${pid}/stat`).seconds
}

/** CPU seconds used and wall seconds passed while `work` runs. */
export async function measureCpu<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: number; wall: number }> {
  const cpu0 = cpuSeconds(pid)
  const t0 = performance.now()
  const result = await work()
  return { result, cpu: cpuSeconds(pid) - cpu0, wall: (performance.now() - t0) / 1000 }
}

/**
 * Sets the CPU priority of every thread of a process. On Linux the nice value is per thread, so renicing a pid
 * reaches only its main thread; the threads it already started (V8's, libuv's) keep theirs.
 */
export function niceAll(pid: number, nice: number): void {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      os.setPriority(Number(tid), nice)
    } catch {
      /* the thread ended meanwhile */
    }
  }
}

/**
 * CPU seconds used so far by each kind of thread of a process, by thread name (`/proc/<pid>/task/<tid>/comm`):
 * in a Node process `MainThread` (here the HTTP thread), `WorkerThread` (worker threads: the shards), `V8Worker`
 * (V8's helpers: concurrent GC and compilation), `libuv-worker` (the thread pool: lmdb's commits and flushes).
 * Threads that ended are not counted, so take the difference of two readings over a window with no thread churn.
 */
export function cpuSecondsByThread(pid: number): Map<string, number> {
  const byName = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let thread: { name: string; seconds: number }
    try {
      thread = readStat(`/proc/${pid}/task/${tid}/stat`)
    } catch {
      continue // the thread ended meanwhile
    }
    byName.set(thread.name, (byName.get(thread.name) ?? 0) + thread.seconds)
  }
  return byName
}
