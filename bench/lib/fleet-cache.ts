/**
 * @module bench/lib/fleet-cache
 * Keeps a paired fleet between bench runs (pairing 2,000 sessions takes ~15 min of CPU): the sandbox's state file,
 * one gateway DATA_DIR per part of the fleet, and the sessions' ids, under `bench/.cache/<name>/` (gitignored).
 * Gateway and sandbox both work on the cached files in place and must both stop cleanly for the cache to stay
 * coherent (their Signal sessions advance together), so a run removes the `complete` marker when it starts and
 * writes it back once both stopped (and every part finished pairing); a cache without the marker is thrown away
 * and the fleet paired again.
 * BENCH_FLEET_CACHE=0 pairs afresh in a temporary folder that is removed afterwards.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FleetSession } from './fleet.js'

const cacheRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.cache')
const enabled = process.env.BENCH_FLEET_CACHE !== '0'

export class FleetCache {
  readonly dir: string
  /** Pass to the sandbox (SANDBOX_STATE_FILE / --state). */
  readonly stateFile: string
  /** True when the folder held a complete fleet from an earlier run. */
  readonly reused: boolean
  /** Parts whose pairing started but did not finish: such a cache is not kept. */
  #unfinished = 0

  constructor(name: string) {
    this.dir = enabled ? path.join(cacheRoot, name) : mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`))
    this.stateFile = path.join(this.dir, 'sandbox-state.json')
    const marker = path.join(this.dir, 'complete')
    this.reused = enabled && existsSync(marker)
    if (!this.reused) rmSync(this.dir, { recursive: true, force: true })
    mkdirSync(this.dir, { recursive: true })
    rmSync(marker, { force: true }) // a run that dies half way leaves no marker behind
  }

  /** The gateway DATA_DIR of one part of the fleet. */
  dataDir(part: string): string {
    return path.join(this.dir, part)
  }

  /** The sessions of `part`, from the cache, or paired now by `pair` and remembered. */
  async sessions(part: string, pair: () => Promise<FleetSession[]>): Promise<FleetSession[]> {
    const file = path.join(this.dir, `${part}.json`)
    if (this.reused && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as FleetSession[]
    this.#unfinished++
    const fleet = await pair()
    writeFileSync(file, JSON.stringify(fleet))
    this.#unfinished--
    return fleet
  }

  /** After gateway and sandbox stopped (the sandbox wrote its state): keep the cache, or remove the temporary one. */
  finish(): void {
    if (enabled && this.#unfinished === 0) writeFileSync(path.join(this.dir, 'complete'), new Date().toISOString())
    else rmSync(this.dir, { recursive: true, force: true })
  }
}
