/**
 * @module bench/lib/pairing-blocks
 * Whether pairing keeps its pace as a fleet grows: per block of pairings, the pairings a second and the CPU a
 * pairing of the gateway and of the sandbox (which side slows down, if one does). The rate is the machine's too (a
 * shared machine's load moves it more than the fleet's size does), so the figure is the CPU a pairing, last block
 * against the first.
 *
 * @example
 * const blocks = new PairingBlocks(250, () => ({ gateway: cpuSeconds(gwPid), sandbox: cpuSeconds(sandboxPid) }))
 * await pairFleet({ ..., onPaired: done => blocks.paired(done) })
 * const row = blocks.figure(2000, 10) // for BenchReport.add, or undefined with fewer than two blocks
 */
import type { Figure } from './results.js'

interface Cpu {
  gateway: number
  sandbox: number
}

const cpuText = (c: Cpu) => `${c.gateway.toFixed(0)}/${c.sandbox.toFixed(0)}`

export class PairingBlocks {
  readonly #rates: number[] = []
  readonly #cpu: Cpu[] = []
  #blockStarted = performance.now()
  #cpuBefore: Cpu

  /** `cpuSeconds`: both processes' CPU seconds so far. */
  constructor(
    readonly block: number,
    readonly cpuSeconds: () => Cpu,
  ) {
    this.#cpuBefore = cpuSeconds()
  }

  /** After each pairing (`done` so far): closes a block every `block` pairings; returns its log line then. */
  paired(done: number): string | undefined {
    if (done % this.block !== 0) return undefined
    const now = performance.now()
    const cpu = this.cpuSeconds()
    const ms = (a: number, b: number) => ((a - b) / this.block) * 1000
    this.#rates.push(this.block / ((now - this.#blockStarted) / 1000))
    this.#cpu.push({
      gateway: ms(cpu.gateway, this.#cpuBefore.gateway),
      sandbox: ms(cpu.sandbox, this.#cpuBefore.sandbox),
    })
    this.#blockStarted = now
    this.#cpuBefore = cpu
    return `${this.#rates.at(-1)!.toFixed(2)} a second, CPU ms a pairing gateway/sandbox ${cpuText(this.#cpu.at(-1)!)}`
  }

  figure(fleet: number, concurrency: number): Figure | undefined {
    if (this.#cpu.length < 2) return undefined
    const total = (c: Cpu) => c.gateway + c.sandbox
    const steady = total(this.#cpu.at(-1)!) / total(this.#cpu[0]!)
    return {
      figure: `CPU a pairing (gateway + sandbox), last ${this.block} of ${fleet} ÷ first ${this.block}`,
      value: steady,
      unit: 'ratio',
      goal: '≤ 1.2 (pairing at a steady rate)',
      met: steady <= 1.2,
      detail: `CPU ms a pairing, gateway/sandbox, per ${this.block}: ${this.#cpu.map(cpuText).join(', ')}; pairings a second (${concurrency} in flight): ${this.#rates.map(r => r.toFixed(2)).join(', ')}`,
    }
  }
}
