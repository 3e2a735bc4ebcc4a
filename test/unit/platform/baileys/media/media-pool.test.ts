import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaPool } from '../../../../../src/platform/baileys/media/media-pool.js'
import { makeTlsMaterial } from '../../../../../src/sandbox/certs.js'
import { onLoopback, type OnLoopback } from '../../../../support/loopback-server.js'

/** The nice value of every thread of this process (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').flatMap(tid => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])]
    } catch {
      return []
    } // the thread ended meanwhile
  })
}

let served: OnLoopback<https.Server>
let host: string
let ca: string
let dir: string
beforeAll(async () => {
  const tls = await makeTlsMaterial()
  ca = tls.caCert
  served = await onLoopback(
    https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      req.resume()
      req.on('end', () => res.end(JSON.stringify({ url: 'https://mmg.test/x', direct_path: '/x' })))
    }),
  )
  host = `127.0.0.1:${served.port}`
  dir = await mkdtemp(path.join(os.tmpdir(), 'media-pool-'))
})
afterAll(async () => {
  await served.close()
  await rm(dir, { recursive: true, force: true })
})

describe.runIf(process.platform === 'linux')('the media pool', () => {
  it('encrypts and uploads on its own threads at the lowest CPU priority, and holds no thread once closed', async () => {
    const start = os.getPriority(0)
    expect(threadNices().filter(n => n === 19)).toEqual([])
    const pool = new MediaPool({ threads: 1, nice: 19 })
    const file = path.join(dir, 'f')
    await writeFile(file, Buffer.alloc(100_000, 7))
    const outcome = await pool.run({
      mode: 'encrypted',
      filePath: file,
      keyInfo: 'WhatsApp Document Keys',
      target: { hosts: [host], auth: 'a', pathPrefix: '/mms/document', ca, timeoutMs: 5000 },
    })
    expect(outcome.ok && outcome.result.answer).toEqual({ url: 'https://mmg.test/x', directPath: '/x' })
    // the idle pool thread is still there (it ends after a quiet spell), at nice 19; this thread is untouched
    expect(threadNices().filter(n => n === 19)).toHaveLength(1)
    expect(os.getPriority(0)).toBe(start)
    await pool.close()
    await expect.poll(() => threadNices().filter(n => n === 19)).toEqual([])
  })

  it('a refused upload comes back as data, and the pool keeps working', async () => {
    const pool = new MediaPool({ threads: 1, nice: 19 })
    const file = path.join(dir, 'g')
    await writeFile(file, 'x')
    const job = {
      mode: 'raw' as const,
      filePath: file,
      target: { hosts: [host], auth: 'a', pathPrefix: '/p', timeoutMs: 5000 },
    }
    const refused = await pool.run(job) // no CA: the host's certificate is not trusted
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.reason).toMatch(/media upload failed on every host/)
    expect((await pool.run({ ...job, target: { ...job.target, ca } })).ok).toBe(true)
    await expect(pool.run({ ...job, filePath: path.join(dir, 'missing') })).rejects.toThrow(/ENOENT/)
    await pool.close()
  })
})
