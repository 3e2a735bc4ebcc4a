/**
 * @module metrics/observe
 * One-line hooks for the platform and actor code: each wraps or marks an event and counts it in the thread's
 * counters (`thread-counters.ts`), whatever thread it runs in.
 */
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
      countInThread('errorAcks', { code: /\(error (\w{1,8})\)/.exec(err.message)?.[1] ?? 'unknown' })
    } else if (err instanceof GatewayError && err.code === 'PLATFORM_TIMEOUT') {
      countInThread('acks', { result: 'timeout' })
    }
    throw err
  }
}

/** A fixed reason for a media download failure, read off the client-facing message. */
export function mediaFailureReason(message: string): string {
  const detail = message.replace(/^error parser file from url /, '')
  if (/^\d{3}\b/.test(detail)) return 'http_status'
  if (detail.startsWith('timeout')) return 'timeout'
  if (detail.startsWith('file larger')) return 'too_large'
  if (detail.includes('private address')) return 'private_address'
  if (detail === 'aborted') return 'aborted'
  if (/^(invalid url|unsupported protocol|too many redirects)/.test(detail)) return 'bad_url'
  return 'network'
}

/** Counts a media download's bytes, or its failure reason. Passes it through. */
export async function observeMediaDownload<T extends { bytes: number }>(download: Promise<T>): Promise<T> {
  try {
    const file = await download
    countInThread('mediaDownloads', { result: 'ok' })
    countInThread('mediaBytes', {}, file.bytes)
    return file
  } catch (err) {
    countInThread('mediaDownloads', { result: mediaFailureReason(err instanceof Error ? err.message : String(err)) })
    throw err
  }
}

export function countReconnect(): void {
  countInThread('reconnects')
}
