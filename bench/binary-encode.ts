/**
 * Baileys' binary node encoder against the gateway's (src/platform/baileys/patches/binary-encoder.ts) on the frames a
 * text costs: the message stanza to a contact and the ack of a receipt. Time and heap allocated per encode, the two
 * encoders alternating in one process, as one shard thread would run them. The young generation is made large
 * enough that a 500-encode allocation sample does not collect (a sample that did is retried).
 *
 *   npm run bench:encode              (BENCH_ENCODE_ROUNDS=9 rounds of BENCH_ENCODE_N=20000 encodes each)
 */
import { execFileSync } from 'node:child_process'
import { PerformanceObserver } from 'node:perf_hooks'
import { type BinaryNode, encodeBinaryNode } from '@whiskeysockets/baileys'
import * as constants from '@whiskeysockets/baileys/lib/WABinary/constants.js'
import {
  binaryNodeEncoder,
  type EncodeBinaryNode,
  type EncodeOptions,
} from '../src/platform/baileys/patches/binary-encoder.js'
import { STANZAS } from '../test/support/binary-nodes.js'
import { BenchReport, median } from './lib/results.js'
import { setting } from './lib/settings.js'

const FLAGS = ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64']
if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  // run again with the flags this measurement needs
  execFileSync(process.execPath, [...FLAGS, ...process.execArgv, process.argv[1]!], { stdio: 'inherit' })
  process.exit(0)
}

const ROUNDS = setting('BENCH_ENCODE_ROUNDS', 9)
const N = setting('BENCH_ENCODE_N', 20_000)
const ALLOCATION_SAMPLE = 500

const baileys = encodeBinaryNode as EncodeBinaryNode
const patched = binaryNodeEncoder(constants as unknown as EncodeOptions, () => {
  throw new Error('the patched encoder handed a valid node to Baileys')
})

/** The frames of one text: its stanza when the sessions exist, and the ack of each receipt. */
const FRAMES = {
  'text stanza (two contact devices, one own, privacy token)':
    STANZAS['text to a contact, sessions established (two contact devices, one own, privacy token)']!,
  'ack of a receipt': STANZAS['ack of a receipt']!,
}

let collections = 0
new PerformanceObserver(list => {
  collections += list.getEntries().length
}).observe({ entryTypes: ['gc'] })
const settle = () => new Promise(resolve => setTimeout(resolve, 5))

function nsPerEncode(encode: EncodeBinaryNode, node: BinaryNode): number {
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < N; i++) encode(node)
  return Number(process.hrtime.bigint() - t0) / N
}

async function bytesPerEncode(encode: EncodeBinaryNode, node: BinaryNode): Promise<number | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    ;(globalThis as unknown as { gc: () => void }).gc()
    await settle()
    const before = collections
    const heap = process.memoryUsage().heapUsed
    for (let i = 0; i < ALLOCATION_SAMPLE; i++) encode(node)
    const grown = process.memoryUsage().heapUsed - heap
    await settle()
    if (collections === before && grown > 0) return grown / ALLOCATION_SAMPLE
  }
  return undefined
}

const report = new BenchReport('binary-encode', { rounds: ROUNDS, encodesPerRound: N })
for (const [name, node] of Object.entries(FRAMES)) {
  const frame = baileys(node)
  if (!patched(node).equals(frame)) throw new Error(`${name}: the encoders differ`)
  for (let i = 0; i < 3; i++) for (const encode of [baileys, patched]) nsPerEncode(encode, node) // warm up
  const ns = { baileys: [] as number[], patched: [] as number[] }
  const bytes = { baileys: [] as number[], patched: [] as number[] }
  for (let r = 0; r < ROUNDS; r++) {
    for (const which of r % 2 === 0 ? (['baileys', 'patched'] as const) : (['patched', 'baileys'] as const)) {
      const encode = which === 'baileys' ? baileys : patched
      ns[which].push(nsPerEncode(encode, node))
      const b = await bytesPerEncode(encode, node)
      if (b !== undefined) bytes[which].push(b)
    }
  }
  const range = (xs: number[], unit: number) =>
    `${(Math.min(...xs) / unit).toFixed(2)}-${(Math.max(...xs) / unit).toFixed(2)}`
  const ratios = ns.baileys.map((b, i) => b / ns.patched[i]!)
  for (const which of ['baileys', 'patched'] as const) {
    report.add({
      figure: `${name}, ${frame.length} bytes: ${which === 'baileys' ? "Baileys' encoder" : 'patched'}, per encode`,
      value: median(ns[which]) / 1000,
      unit: 'µs',
      detail: `median of ${ROUNDS} rounds (${range(ns[which], 1000)} µs)`,
    })
    report.add({
      figure: `${name}: ${which === 'baileys' ? "Baileys' encoder" : 'patched'}, heap allocated per encode`,
      value: median(bytes[which]) / 1024,
      unit: 'KB',
      detail: `${bytes[which].length} samples of ${ALLOCATION_SAMPLE} encodes (${range(bytes[which], 1024)} KB)`,
    })
  }
  report.add({
    figure: `${name}: Baileys ÷ patched, per round`,
    value: median(ratios),
    unit: '×',
    detail: `rounds ${ratios.map(r => r.toFixed(1)).join(', ')}`,
  })
}
report.finish()
