/**
 * @module metrics/observe
 * One-line hooks for the platform and actor code: each wraps or marks an event and counts it in the thread's
 * counters (`thread-counters.ts`), whatever thread it runs in.
 */
import { MediaDownloadError, type MediaFailureReason } from '../media/download-error.js'
import { GatewayError } from '../protocol/errors.js'
import { countInThread } from './thread-counters.js'

/** Counts the outcome of a server-ack wait: ok, an error ack (and its code), or a timeout. Passes it through. */
export async function observeAck<T>(ack: Promise<T>): Promise<T> {
  try {
    const value = await ack
    countInThread('acks', { result: 'ok' })
    return value
  } catch (err) {
    if (err instanceof GatewayError && err.code === 'PLATFORM_REJECTED') {
      countInThread('acks', { result: 'error' })
      countInThread('errorAcks', { code: err.platformCode ?? 'unknown' })
    } else if (err instanceof GatewayError && err.code === 'PLATFORM_TIMEOUT') {
      countInThread('acks', { result: 'timeout' })
    }
    throw err
  }
}

/** The fixed reason of a media download failure: the one its MediaDownloadError carries (src/media/download.ts
 * types every failure), `network` for anything else. */
function mediaFailureReason(err: unknown): MediaFailureReason {
  return err instanceof MediaDownloadError ? err.reason : 'network'
}

/** Counts a media download's bytes, or its failure reason. Passes it through. */
export async function observeMediaDownload<T extends { bytes: number }>(download: Promise<T>): Promise<T> {
  try {
    const file = await download
    countInThread('mediaDownloads', { result: 'ok' })
    countInThread('mediaBytes', {}, file.bytes)
    return file
  } catch (err) {
    countInThread('mediaDownloads', { result: mediaFailureReason(err) })
    throw err
  }
}

export function countReconnect(): void {
  countInThread('reconnects')
}
