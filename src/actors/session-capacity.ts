/**
 * @module actors/session-capacity
 * How many sessions this machine holds, the default of MAX_SESSIONS when the operator sets none: the lower of what
 * its memory and its open-file limit allow. A session idles at about 0.5 MB (0.46 MB at 5,000 sessions, 0.52 MB at
 * 2,000: docs/benchmarks-log.md); it is counted at twice that, so that its bursts (a history sync, a send with
 * media) fit, and sessions get half the memory left after the process's own fixed cost, the rest being the
 * system's, the page cache's (lmdb reads through it) and the allocator's. Each session holds one platform socket,
 * and its client one HTTP connection or so; a thousand descriptors stay for the store, the logs and the threads.
 * An explicit MAX_SESSIONS always wins; `src/main.ts` logs the figure and what bound it when it is derived.
 *
 * @example
 * sessionCapacity({ memoryBytes: 24 * 2 ** 30, openFiles: 20_000 })
 * // { sessions: 9400, bound: 'open files', byMemory: 12032, byFiles: 9488, memoryMb: 24576, openFiles: 20000 }
 */
import { readFileSync } from 'node:fs'
import os from 'node:os'

/** Memory counted per session, MB: twice the measured idle figure. */
export const SESSION_MB = 1
/** The process's own cost before any session, MB: the HTTP thread and two shard threads with the client loaded. */
export const PROCESS_MB = 512
/** The share of the memory left after PROCESS_MB that sessions may take. */
export const SESSION_MEMORY_SHARE = 0.5
/** Descriptors per session: its platform socket and its client's HTTP connection. */
export const FILES_PER_SESSION = 2
/** Descriptors kept for everything else (the store's files, logs, the threads' event handles, media temp files). */
export const FILES_RESERVED = 1_024

export interface MachineLimits {
  /** The memory the process may use: the machine's, or its container's limit when lower. */
  memoryBytes: number
  /** The process's open-file limit (`ulimit -n`), undefined where it cannot be read. */
  openFiles: number | undefined
}

export interface SessionCapacity {
  /** Sessions the machine holds (rounded down to hundreds above 100, at least 1). */
  sessions: number
  /** Which limit gives that figure. */
  bound: 'memory' | 'open files'
  byMemory: number
  byFiles: number | undefined
  memoryMb: number
  openFiles: number | undefined
}

const roundDown = (n: number): number => (n >= 100 ? Math.floor(n / 100) * 100 : Math.max(1, Math.floor(n)))

export function sessionCapacity(limits: MachineLimits): SessionCapacity {
  const memoryMb = Math.floor(limits.memoryBytes / 2 ** 20)
  const byMemory = Math.max(0, Math.floor(((memoryMb - PROCESS_MB) * SESSION_MEMORY_SHARE) / SESSION_MB))
  const byFiles =
    limits.openFiles === undefined
      ? undefined
      : Math.max(0, Math.floor((limits.openFiles - FILES_RESERVED) / FILES_PER_SESSION))
  const bound = byFiles !== undefined && byFiles < byMemory ? 'open files' : 'memory'
  const sessions = roundDown(bound === 'memory' ? byMemory : byFiles!)
  return { sessions, bound, byMemory, byFiles, memoryMb, openFiles: limits.openFiles }
}

/** The soft "Max open files" of /proc/self/limits (Node raises it to the hard limit at start); undefined elsewhere. */
export function openFilesLimit(limits = '/proc/self/limits'): number | undefined {
  try {
    const line = readFileSync(limits, 'utf8')
      .split('\n')
      .find(l => l.startsWith('Max open files'))
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0]
    return soft === undefined || soft === 'unlimited' || !/^\d+$/.test(soft) ? undefined : Number(soft)
  } catch {
    return undefined
  }
}

/** This process's limits: the machine's memory (or the container's, when lower) and its open-file limit. */
export function machineLimits(): MachineLimits {
  const total = os.totalmem()
  const constrained = process.constrainedMemory()
  return {
    memoryBytes: constrained > 0 && constrained < total ? constrained : total,
    openFiles: openFilesLimit(),
  }
}

/** What this machine holds, computed once (the setting's default and the start's log line read the same figure). */
let measured: SessionCapacity | undefined
export const machineSessionCapacity = (): SessionCapacity => (measured ??= sessionCapacity(machineLimits()))

/** The start's log line of a derived MAX_SESSIONS: the figure, each limit's figure, and which one bound it. */
export function describeCapacity(c: SessionCapacity): string {
  const files =
    c.byFiles === undefined
      ? 'open-file limit unknown'
      : `open-file limit ${c.openFiles} allows ${c.byFiles} (${FILES_PER_SESSION} a session, ${FILES_RESERVED} kept)`
  return (
    `MAX_SESSIONS ${c.sessions} from this machine, bound by its ${c.bound}: ` +
    `memory ${c.memoryMb} MB allows ${c.byMemory} (${SESSION_MB} MB a session, ${SESSION_MEMORY_SHARE * 100}% of ` +
    `what is left after ${PROCESS_MB} MB), ${files}; set MAX_SESSIONS to choose another figure`
  )
}
