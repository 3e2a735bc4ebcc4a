/**
 * @module platform/baileys/media/run-upload
 * One media job: hash (channel media) or encrypt (end-to-end media) the file, then upload it. Runs in a media pool
 * thread (pool-thread.ts); importable anywhere for tests.
 */
import { rm } from 'node:fs/promises'
import { encryptFile, hashFile } from './encrypt-file.js'
import type { UploadJob, UploadOutcome, UploadResult } from './upload-job.js'
import { UploadFailed, uploadFile } from './upload-file.js'

export default async function runUploadJob(job: UploadJob): Promise<UploadOutcome> {
  try {
    return { ok: true, result: await run(job) }
  } catch (err) {
    if (err instanceof UploadFailed) return { ok: false, reason: err.message }
    throw err
  }
}

async function run(job: UploadJob): Promise<UploadResult> {
  if (job.mode === 'raw') {
    const { fileSha256, fileLength } = await hashFile(job.filePath)
    const answer = await uploadFile(job.filePath, fileSha256, job.target)
    return { answer, fileSha256, fileLength }
  }
  const encPath = `${job.filePath}.enc`
  try {
    const enc = await encryptFile(job.filePath, encPath, job.keyInfo!)
    const answer = await uploadFile(encPath, enc.fileEncSha256, job.target)
    return { answer, ...enc }
  } finally {
    await rm(encPath, { force: true }).catch(() => undefined)
  }
}
