/**
 * The root cause of "CPU per send grows with every socket", isolated: the cost of one async step (an awaited
 * promise) in a thread holding K Baileys key stores that each ran one transaction, with Baileys' own storage per
 * store (as shipped) and with the gateway's one shared storage (src/platform/async-context.ts). Each K runs in a
 * fresh child process, since an enabled AsyncLocalStorage stays enabled for the life of the process.
 *
 *   npm run bench:scale:context      (BENCH_CONTEXT_STORES=50,200,500)
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { addTransactionCapability, type SignalKeyStore } from '@whiskeysockets/baileys'
import pino from 'pino'
import { withSharedAsyncContext } from '../src/platform/async-context.js'
import { BenchReport, median } from './lib/results.js'

const RUNS = 3
/** Fewer steps where each is slow (thousands of enabled storages), so every K takes seconds, not minutes. */
const stepsFor = (stores: number): number => Math.min(200_000, Math.max(2_000, Math.round(20_000_000 / (stores + 100))))

/** Child: K stores, each runs one transaction (which enables its storage), then times awaited promises. */
async function child(stores: number, shared: boolean): Promise<number> {
  const logger = pino({ level: 'silent' })
  const keys: SignalKeyStore = { get: async () => ({}), set: async () => {} }
  const make = () => addTransactionCapability(keys, logger, { maxCommitRetries: 1, delayBetweenTriesMs: 0 })
  for (let i = 0; i < stores; i++) {
    const store = shared ? withSharedAsyncContext(make) : make()
    await store.transaction(async () => { await store.set({ 'sender-key-memory': { [`k${i}`]: {} } }) }, `k${i}`)
  }
  const steps = stepsFor(stores)
  const nsPerStep: number[] = []
  for (let r = 0; r < RUNS; r++) {
    const t = process.cpuUsage()
    for (let i = 0; i < steps; i++) await Promise.resolve(i)
    const used = process.cpuUsage(t)
    nsPerStep.push((used.user + used.system) * 1000 / steps)
  }
  return median(nsPerStep)
}

if (process.argv[2] === '--child') {
  console.log(await child(Number(process.argv[3]), process.argv[4] === 'shared'))
} else {
  const counts = (process.env.BENCH_CONTEXT_STORES ?? '50,200,500').split(',').map(Number)
  const self = fileURLToPath(import.meta.url)
  const measure = (k: number, mode: string) =>
    Number(execFileSync(process.execPath, ['--import', 'tsx', self, '--child', String(k), mode], { encoding: 'utf8' }).trim())
  const report = new BenchReport('scale-async-context', { runs: RUNS, stores: counts })
  const base = { own: measure(0, 'own'), shared: measure(0, 'shared') }
  report.add({ figure: 'one async step with no Baileys key store', value: base.own, unit: 'ns' })
  for (const k of counts.filter(k => k > 0)) {
    const own = measure(k, 'own')
    const shared = measure(k, 'shared')
    report.add({ figure: `one async step with ${k} Baileys key stores, a storage each (as shipped)`, value: own, unit: 'ns', detail: `${(own / base.own).toFixed(1)}× the cost with none` })
    report.add({ figure: `one async step with ${k} Baileys key stores, one shared storage (gateway)`, value: shared, unit: 'ns', detail: `${(shared / base.shared).toFixed(1)}× the cost with none` })
  }
  report.finish()
}
