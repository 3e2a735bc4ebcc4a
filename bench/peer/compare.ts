/**
 * Ours ÷ the peer from the result files of the side-by-side runs (run-all.sh, run-matrix.sh): the median over the
 * runs of each configuration, the peer's Redis counted with the peer. Prints one table and says whether every cost
 * ratio is within LIMIT (≤ 1.0 by default; a throughput ratio ≥ 1 / LIMIT) and whether ours lost any answered send.
 * Exit 0: every ratio within; 1: one missed; 2: no configuration has runs of both gateways.
 *
 *   npx tsx bench/peer/compare.ts [RESULTS_DIR] [--limit 1.0]
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { median } from '../lib/results.js'

type Result = Record<string, any>
type Pick = (r: Result) => number | undefined
interface Figure {
  name: string
  better: 'lower' | 'higher'
  n?: number
  mode?: string
  ours: Pick
  peer: Pick
}

const args = process.argv.slice(2)
const limitAt = args.indexOf('--limit')
const LIMIT = limitAt >= 0 ? Number(args[limitAt + 1]) : 1.0
const dir =
  args.find((a, i) => !a.startsWith('--') && i !== limitAt + 1) ??
  process.env.RESULTS_DIR ??
  path.join(process.env.TMPDIR ?? '/tmp', 'peer-bench')
const results: Result[] = readdirSync(dir)
  .filter(f => /^result-.*\.json$/.test(f))
  .map(f => JSON.parse(readFileSync(path.join(dir, f), 'utf8')))

const plus = (a: number | undefined, b: number | undefined | null) => (a === undefined ? undefined : a + (b ?? 0))
const runs = (gateway: string, n?: number, mode?: string) =>
  results.filter(
    r => r.gateway === gateway && (n === undefined || r.n === n) && (mode === undefined || r.burst?.mode === mode),
  )

const figures: Figure[] = [
  {
    name: 'RSS at 0 sessions (MB)',
    better: 'lower',
    ours: r => r.rss0?.gatewayMb,
    peer: r => plus(r.rss0?.gatewayMb, r.rss0?.redisMb),
  },
  {
    name: 'idle CPU at 0 sessions (% of a core)',
    better: 'lower',
    ours: r => r.idleCpu0?.gatewayPct,
    peer: r => plus(r.idleCpu0?.gatewayPct, r.idleCpu0?.redisPct),
  },
]
for (const n of [...new Set(results.map(r => r.n as number))].sort((a, b) => a - b)) {
  figures.push(
    {
      name: `RSS per idle session, N = ${n} (MB)`,
      better: 'lower',
      n,
      ours: r => r.perSessionMb,
      peer: r => plus(r.perSessionMb, r.redisPerSessionMb),
    },
    {
      name: `idle CPU, N = ${n} (% of a core)`,
      better: 'lower',
      n,
      ours: r => r.idleCpu?.gatewayPct,
      peer: r => plus(r.idleCpu?.gatewayPct, r.idleCpu?.redisPct),
    },
    { name: `time to pair ${n} (s)`, better: 'lower', n, ours: r => r.pair?.seconds, peer: r => r.pair?.seconds },
  )
  for (const mode of ['one', 'distinct']) {
    if (!runs('ours', n, mode).length) continue
    const to = mode === 'one' ? 'to one contact' : 'to distinct contacts'
    figures.push(
      {
        name: `CPU per delivered text ${to}, N = ${n} (ms)`,
        better: 'lower',
        n,
        mode,
        ours: r => r.burst.gatewayCpuMsPerDelivered,
        peer: r => r.burst.gatewayPlusRedisCpuMsPerDelivered ?? r.burst.gatewayCpuMsPerDelivered,
      },
      {
        name: `2xx/s ${to}, N = ${n}`,
        better: 'higher',
        n,
        mode,
        ours: r => r.burst.okPerS,
        peer: r => r.burst.okPerS,
      },
      {
        name: `RSS after the burst ${to}, N = ${n} (MB)`,
        better: 'lower',
        n,
        mode,
        ours: r => r.burst.rssAfter?.gatewayMb,
        peer: r => plus(r.burst.rssAfter?.gatewayMb, r.burst.rssAfter?.redisMb),
      },
    )
  }
}

const medianOf = (rs: Result[], pick: Pick) => {
  const xs = rs.map(pick).filter((x): x is number => typeof x === 'number' && Number.isFinite(x))
  return xs.length ? median(xs) : undefined
}
const f = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(2))
let compared = 0
let missed = 0
console.log(`| figure | ours | peer + Redis | ours ÷ peer | within ${LIMIT} |\n| --- | --- | --- | --- | --- |`)
for (const fig of figures) {
  const ours = medianOf(runs('ours', fig.n, fig.mode), fig.ours)
  const peer = medianOf(runs('peer', fig.n, fig.mode), fig.peer)
  if (ours === undefined || peer === undefined || peer === 0) {
    console.log(`| ${fig.name} | ${f(ours)} | ${f(peer)} | | n/a |`)
    continue
  }
  const ratio = ours / peer
  const within = fig.better === 'lower' ? ratio <= LIMIT : ratio >= 1 / LIMIT
  compared++
  if (!within) missed++
  console.log(`| ${fig.name} | ${f(ours)} | ${f(peer)} | ${f(ratio)} | ${within ? 'yes' : 'NO'} |`)
}
const lost = (gateway: string) => runs(gateway).reduce((n, r) => n + (r.burst?.lost ?? 0), 0)
console.log(
  `| answered 2xx but never delivered | ${lost('ours')} | ${lost('peer')} | | ${lost('ours') ? 'NO' : 'yes'} |`,
)
if (compared === 0) {
  console.log(`no configuration in ${dir} has runs of both gateways`)
  process.exit(2)
}
console.log(`${compared - missed} of ${compared} ratios within ${LIMIT}; ours lost ${lost('ours')}`)
process.exit(missed === 0 && lost('ours') === 0 ? 0 : 1)
