/**
 * @module media/download-error
 * What a failed media download throws: the client-facing `GatewayError` (its code and message unchanged) together
 * with why it failed, as data. `gateway_media_downloads_total{result}` counts that `reason` (src/metrics/observe.ts);
 * reading it back off the message text missed the SSRF and size refusals, whose wording is the client's.
 */
import { type GatewayError, GatewayErrorFromParts } from '../protocol/errors.js'

/** The `result` label values of a failed download. */
export type MediaFailureReason =
  | 'http_status'
  | 'timeout'
  | 'too_large'
  | 'private_address'
  | 'bad_url'
  | 'aborted'
  | 'network'

export class MediaDownloadError extends GatewayErrorFromParts {
  readonly reason: MediaFailureReason
  constructor(error: GatewayError, reason: MediaFailureReason) {
    super(error.code, error.details)
    this.name = 'MediaDownloadError'
    this.reason = reason
  }
}
