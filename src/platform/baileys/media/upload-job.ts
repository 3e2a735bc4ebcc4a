/**
 * @module platform/baileys/media/upload-job
 * What a shard asks of the media pool and what it gets back (plain data: it crosses a thread by structured clone).
 * `encrypted` is end-to-end media (1:1, group, status): the pool encrypts the file with a fresh media key and uploads
 * the ciphertext. `raw` is channel media: channels are not end-to-end encrypted, the file is uploaded as it is.
 */
import type { ProxyConnectionSettings } from '../../../proxy/proxy-connection.js'
import type { ProxyRoute } from '../../../proxy/proxy-url.js'

export interface UploadTarget {
  /** Media hosts in the order to try (from the platform's media connection). */
  hosts: string[]
  /** The media connection's auth token. */
  auth: string
  /** The URL path before the file token: `/mms/document`, `/newsletter/newsletter-image`... */
  pathPrefix: string
  /** Extra PEM roots to trust (the sandbox's CA); the system roots are always trusted. */
  ca?: string
  timeoutMs: number
  /** The session's proxy the upload goes through (proxy/proxy-connection.ts), with the settings it is held to. */
  proxy?: { route: ProxyRoute; settings: ProxyConnectionSettings }
}

export interface UploadJob {
  mode: 'encrypted' | 'raw'
  /** The downloaded file; left in place (its owner removes it). */
  filePath: string
  /** HKDF info for the media keys, `WhatsApp Document Keys`... (encrypted only). */
  keyInfo?: string
  target: UploadTarget
}

export interface UploadAnswer {
  url?: string
  directPath?: string
  /** Channel uploads: the handle the post names as media_id. */
  handle?: string
}

export interface UploadResult {
  answer: UploadAnswer
  fileSha256: Uint8Array
  fileLength: number
  /** Encrypted only. */
  mediaKey?: Uint8Array
  fileEncSha256?: Uint8Array
}

/** A refused or failed upload is data (the platform said no), not a crash of the pool. */
export type UploadOutcome = { ok: true; result: UploadResult } | { ok: false; reason: string }
