/**
 * @module bench/lib/proc
 * What a process costs, read from /proc (Linux): resident memory and CPU time used so far, threads included.
 */
import { readFileSync } from 'node:fs'

/** Resident set size in MB. */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
}

/** User + system CPU seconds used by the process and all its threads so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces) start after the last ')'; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
