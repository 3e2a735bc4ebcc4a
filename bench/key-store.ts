/**
 * The cost of DATA_KEY on the Signal key-store path: `keys.set` (one lmdb transaction per call, as Baileys commits
 * a key transaction) and `keys.get` of a Signal-session-sized record (~1.5 KB of JSON), plain vs AES-256-GCM sealed,
 * in the same run. Median over rounds that alternate the two stores.
 *
 *   npm run bench:key-store           (BENCH_OPS=2000 operations per round, BENCH_ROUNDS=5)
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openLmdbStore } from '../src/storage/lmdb-store.js'
import type { Store } from '../src/storage/types.js'
import { BenchReport, median } from './lib/results.js'

const OPS = Number(process.env.BENCH_OPS ?? 2000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)

// a Signal session record is a JSON object of a few Buffers; ~1 KB of random bytes is ~1.5 KB once base64'd
const record = () => ({ chain: randomBytes(512), root: randomBytes(32), pending: randomBytes(480) })
const values = Array.from({ length: OPS }, record)

async function round(store: Store): Promise<{ setUs: number; getUs: number }> {
  const keys = store.auth('bench').keys
  const ids = values.map((_, i) => `1555${String(i).padStart(7, '0')}.0`)
  let t = process.hrtime.bigint()
  for (let i = 0; i < OPS; i++) await keys.set({ session: { [ids[i]!]: values[i] as unknown as Uint8Array } })
  const setUs = Number(process.hrtime.bigint() - t) / 1000 / OPS
  t = process.hrtime.bigint()
  for (let i = 0; i < OPS; i++) await keys.get('session', [ids[i]!])
  const getUs = Number(process.hrtime.bigint() - t) / 1000 / OPS
  return { setUs, getUs }
}

const dirs = [mkdtempSync(path.join(os.tmpdir(), 'bench-plain-')), mkdtempSync(path.join(os.tmpdir(), 'bench-sealed-'))]
const plain = openLmdbStore(dirs[0]!)
const sealed = openLmdbStore(dirs[1]!, { dataKey: randomBytes(32).toString('base64') })
const results = {
  plain: { set: [] as number[], get: [] as number[] },
  sealed: { set: [] as number[], get: [] as number[] },
}
await round(plain) // warm-up: JIT, lmdb maps
await round(sealed)
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, store] of [
    ['plain', plain],
    ['sealed', sealed],
  ] as const) {
    const { setUs, getUs } = await round(store)
    results[name].set.push(setUs)
    results[name].get.push(getUs)
  }
}
await plain.close()
await sealed.close()
for (const d of dirs) rmSync(d, { recursive: true, force: true })

const report = new BenchReport('key-store', { ops: OPS, rounds: ROUNDS })
const detail = `median of ${ROUNDS} rounds of ${OPS} operations, ~1.5 KB records`
for (const op of ['set', 'get'] as const) {
  const p = median(results.plain[op])
  const s = median(results.sealed[op])
  report.add({ figure: `keys.${op}, plain`, value: p, unit: 'µs/op', detail })
  report.add({ figure: `keys.${op}, DATA_KEY (AES-256-GCM)`, value: s, unit: 'µs/op', detail })
  report.add({ figure: `keys.${op}, DATA_KEY ÷ plain`, value: s / p, unit: 'ratio', detail })
}
report.finish()
