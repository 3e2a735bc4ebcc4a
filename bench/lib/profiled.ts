/**
 * @module bench/lib/profiled
 * A gateway CPU profile of the measured phases of a bench: node flags for `--cpu-prof` into a temp folder, each
 * phase's start and end on the profiles' clock, and after the gateway has exited (profiles are written at exit) the
 * summary of those windows, printed and ready for the report.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  formatShares,
  monotonicUs,
  readProfiles,
  summariseProfiles,
  type CpuShare,
  type CpuSummary,
} from './cpu-profile.js'

const root = path.resolve(import.meta.dirname, '..', '..')
const top = (shares: CpuShare[], n: number) =>
  shares
    .slice(0, n)
    .map(s => `${s.name} ${(s.share * 100).toFixed(0)}%`)
    .join(', ')

/** `shares` with the frames of the tree at `tree` named from its root (a result file names no place on the machine). */
const fromTree = (shares: CpuShare[], tree: string) =>
  shares.map(s => ({ ...s, name: s.name.replaceAll(`${tree}/`, '') }))

export class ProfiledPhase {
  readonly #dir = mkdtempSync(path.join(os.tmpdir(), 'bench-prof-'))
  /** The gateway tree profiled when it is not this one (an A/B of built trees). */
  readonly #tree: string | undefined
  readonly #windows: { fromUs: number; toUs: number }[] = []
  /** Flags for startGateway / withWorld; none with BENCH_CPU_PROFILE=0 (V8's sampler costs every thread it runs in). */
  readonly nodeArgs = process.env.BENCH_CPU_PROFILE === '0' ? [] : ['--cpu-prof', `--cpu-prof-dir=${this.#dir}`]

  constructor(tree?: string) {
    this.#tree = tree
  }

  start(): void {
    this.#windows.push({ fromUs: monotonicUs(), toUs: Infinity })
  }
  end(): void {
    this.#windows.at(-1)!.toUs = monotonicUs()
  }

  /** Call after the gateway exited. Prints the summary (BENCH_PROFILE_TOP lines a table, default 12), removes the
   * profiles, returns it with a one-line digest. */
  summarise(what: string): { summary: CpuSummary; digest: string } {
    try {
      const summarised = summariseProfiles(readProfiles(this.#dir), {
        root,
        windows: this.#windows,
        top: Number(process.env.BENCH_PROFILE_TOP ?? 12),
      })
      const tree = this.#tree
      const summary = tree
        ? {
            ...summarised,
            byPackage: fromTree(summarised.byPackage, tree),
            byCaller: fromTree(summarised.byCaller, tree),
            byFunction: fromTree(summarised.byFunction, tree),
          }
        : summarised
      console.log(
        formatShares(
          `\nCPU ${what} by package (self time, ${summary.threads} threads, ${Math.round(summary.busyMs)} ms sampled busy):`,
          summary.byPackage,
        ),
      )
      console.log(formatShares('by the package that called (Node built-ins count for their caller):', summary.byCaller))
      console.log(formatShares('by function:', summary.byFunction))
      const digest = `by calling package: ${top(summary.byCaller, 6)}; self time by package: ${top(summary.byPackage, 5)}; top functions: ${top(summary.byFunction, 4)}`
      return { summary, digest }
    } finally {
      rmSync(this.#dir, { recursive: true, force: true })
    }
  }
}
