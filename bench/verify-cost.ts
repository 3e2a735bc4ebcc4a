/**
 * The cost of the restored platform signature checks (src/platform/baileys/patches/signature-check.ts): one XEdDSA verify with the
 * native path the gateway uses, against libsignal's pure-JS verify it would otherwise take, and what that means
 * per connection (2 checks: the Noise chain's leaf and intermediate) and per pairing (+1: the account signature).
 * Runs on the calling thread, as one shard's worker thread would.
 *
 *   npm run bench:verify              (BENCH_VERIFY_RUNS=2000 native, a fortieth of that pure-JS)
 */
import { randomBytes } from 'node:crypto'
import { Curve } from '@whiskeysockets/baileys'
import { verifySignature } from 'libsignal/src/curve.js'
import { checkedVerify } from '../src/platform/baileys/patches/signature-check.js'
import { BenchReport, median, percentile } from './lib/results.js'

const RUNS = Number(process.env.BENCH_VERIFY_RUNS ?? 2000)
const JS_RUNS = Math.max(10, Math.round(RUNS / 40))
const CHECKS_PER_CONNECTION = 2
const CHECKS_PER_PAIRING = 3

/** A fresh key and a signed message the size of a Noise certificate's details (~100 bytes). */
function sample() {
  const keys = Curve.generateKeyPair()
  const message = randomBytes(100)
  return { key: keys.public, message, signature: Buffer.from(Curve.sign(keys.private, message)) }
}

/** Milliseconds per call of `verify`, one timing per call, over `runs` different keys (no key is reused). */
function timeVerify(runs: number, verify: (s: ReturnType<typeof sample>) => boolean): number[] {
  const samples = Array.from({ length: runs }, sample)
  const times: number[] = []
  for (const s of samples) {
    const t0 = performance.now()
    if (!verify(s)) throw new Error('a good signature failed to verify')
    times.push(performance.now() - t0)
  }
  return times
}

const report = new BenchReport('verify-cost', { runs: RUNS, jsRuns: JS_RUNS })
timeVerify(50, s => checkedVerify(s.key, s.message, s.signature)) // warm up JIT and OpenSSL
const native = timeVerify(RUNS, s => checkedVerify(s.key, s.message, s.signature))
const pureJs = timeVerify(JS_RUNS, s =>
  verifySignature(Buffer.concat([Buffer.from([5]), s.key]), s.message, s.signature),
)
const nativeMs = median(native)
const jsMs = median(pureJs)
report.add({
  figure: 'one signature check, native (gateway), median',
  value: nativeMs * 1000,
  unit: 'µs',
  detail: `${RUNS} keys`,
})
report.add({ figure: 'one signature check, native (gateway), p99', value: percentile(native, 0.99) * 1000, unit: 'µs' })
report.add({
  figure: 'one signature check, libsignal pure JS, median',
  value: jsMs,
  unit: 'ms',
  detail: `${JS_RUNS} keys`,
})
report.add({
  figure: 'check cost per connection (2 checks), native',
  value: nativeMs * CHECKS_PER_CONNECTION * 1000,
  unit: 'µs',
})
report.add({
  figure: 'check cost per pairing (3 checks), native',
  value: nativeMs * CHECKS_PER_PAIRING * 1000,
  unit: 'µs',
})
report.add({
  figure: 'check cost per connection (2 checks), if pure JS',
  value: jsMs * CHECKS_PER_CONNECTION,
  unit: 'ms',
})
report.add({ figure: 'pure JS ÷ native, per check', value: jsMs / nativeMs, unit: '×' })
report.finish()
