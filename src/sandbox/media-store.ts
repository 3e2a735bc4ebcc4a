/**
 * @module sandbox/media-store
 * Encrypted media blobs uploaded by clients, keyed by their path on the media host.
 */
import { randomBytes } from 'node:crypto'

export interface StoredMedia {
  path: string
  mediaType: string
  body: Buffer
  /** Channel uploads are referenced by this handle (`media_id` on the message). */
  handle?: string
}

export class MediaStore {
  readonly #blobs = new Map<string, StoredMedia>()
  readonly #byHandle = new Map<string, StoredMedia>()

  /** `onUpload` sees every client upload (GET /stats counts them: one status to many recipients = one upload). */
  constructor(private readonly onUpload: (mediaType: string) => void = () => {}) {}

  /** Stores an upload; returns its path (`/mms/<type>/<random>`), which is both direct_path and the URL path. */
  put(mediaType: string, body: Buffer): StoredMedia {
    const path = `/mms/${mediaType}/${randomBytes(16).toString('hex')}`
    const stored = { path, mediaType, body }
    this.#blobs.set(path, stored)
    this.onUpload(mediaType)
    return stored
  }

  /** Channel media is uploaded unencrypted to /newsletter/newsletter-<kind>/… and referenced by a handle. */
  putChannelMedia(kind: string, body: Buffer): StoredMedia {
    const handle = randomBytes(16).toString('hex')
    const stored = { path: `/newsletter/${kind}/${handle}`, mediaType: kind, body, handle }
    this.#blobs.set(stored.path, stored)
    this.#byHandle.set(handle, stored)
    this.onUpload(kind)
    return stored
  }

  byHandle(handle: string): StoredMedia | undefined {
    return this.#byHandle.get(handle)
  }

  get(path: string): StoredMedia | undefined {
    return this.#blobs.get(path.split('?')[0] ?? path)
  }
}
