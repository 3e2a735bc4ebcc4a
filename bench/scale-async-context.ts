/**
 * The root cause of "CPU per send grows with every socket", isolated: the cost of one async step (an awaited
 * promise) in a thread holding K Baileys key stores that each ran one transaction. Each store enables an
 * AsyncLocalStorage of its own and never disables it (Baileys issue #2806). On Node 20 every enabled storage was
 * visited on each async step, so the cost grew with K (113,749 ns at K = 500 against 193 ns with none, 2026-11-25),
 * and the gateway shared one storage between all sockets to avoid it. Node 24 keeps storages in async context
 * frames: the cost should stay flat in K, which is what this bench checks on the running Node. Each K runs in a fresh
 * child process, since an enabled AsyncLocalStorage stays enabled for the life of the process.
 *
 *   npm run bench:scale:context      (BENCH_CONTEXT_STORES=50,200,500,2000)
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { addTransactionCapability, type SignalKeyStore } from '@whiskeysockets/baileys'
import pino from 'pino'
import { BenchReport, median } from './lib/results.js'

const RUNS = 3
/** Fewer steps where each is slow (thousands of enabled storages), so every K takes seconds, not minutes. */
const stepsFor = (stores: number): number => Math.min(200_000, Math.max(2_000, Math.round(20_000_000 / (stores + 100))))

/** Child: K stores, each runs one transaction (which enables its storage), then times awaited promises. */
async function child(stores: number): Promise<number> {
  const logger = pino({ level: 'silent' })
  const keys: SignalKeyStore = { get: async () => ({}), set: async () => {} }
  for (let i = 0; i < stores; i++) {
    const store = addTransactionCapability(keys, logger, { maxCommitRetries: 1, delayBetweenTriesMs: 0 })
    await store.transaction(async () => {
      await store.set({ 'sender-key-memory': { [`k${i}`]: {} } })
    }, `k${i}`)
  }
  const steps = stepsFor(stores)
  const nsPerStep: number[] = []
  for (let r = 0; r < RUNS; r++) {
    const t = process.cpuUsage()
    for (let i = 0; i < steps; i++) await Promise.resolve(i)
    const used = process.cpuUsage(t)
    nsPerStep.push(((used.user + used.system) * 1000) / steps)
  }
  return median(nsPerStep)
}

if (process.argv[2] === '--child') {
  console.log(await child(Number(process.argv[3])))
} else {
  const counts = (process.env.BENCH_CONTEXT_STORES ?? '50,200,500,2000').split(',').map(Number)
  const self = fileURLToPath(import.meta.url)
  const measure = (k: number) =>
    Number(execFileSync(process.execPath, ['--import', 'tsx', self, '--child', String(k)], { encoding: 'utf8' }).trim())
  const report = new BenchReport('scale-async-context', { runs: RUNS, stores: counts, node: process.version })
  const base = measure(0)
  report.add({ figure: 'one async step with no Baileys key store', value: base, unit: 'ns' })
  for (const k of counts.filter(k => k > 0)) {
    const cost = measure(k)
    report.add({
      figure: `one async step with ${k} Baileys key stores, a storage each`,
      value: cost,
      unit: 'ns',
      detail: `${(cost / base).toFixed(1)}× the cost with none`,
    })
  }
  report.finish()
}
