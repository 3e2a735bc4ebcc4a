/**
 * @module sandbox/client-version
 * The web client versions the sandbox accepts, as the platform decides it: every connection's ClientPayload names
 * the client's version (`userAgent.appVersion`, primary.secondary.tertiary, sent inside the Noise handshake), and a
 * version older than the platform's minimum is refused at login with `<failure reason="405"/>`, registration
 * included (a stale client cannot even show a QR). The sandbox publishes its current version in GET /trust, where
 * the gateway looks it up as it looks up the platform web client's current version.
 */
import { DEFAULT_CONNECTION_CONFIG, type proto } from '@whiskeysockets/baileys'
import { compareClientVersions, type ClientVersion } from '../platform/client-version.js'

export { formatClientVersion, parseClientVersion } from '../platform/client-version.js'
export type { ClientVersion }

export interface ClientVersionPolicy {
  /** Older versions are refused with 405; undefined: any version logs in. */
  min: ClientVersion | undefined
  /** What GET /trust publishes: the minimum when one is set, else the version the bundled client library ships. */
  current: ClientVersion
}

export function clientVersionPolicy(min: ClientVersion | undefined): ClientVersionPolicy {
  const bundled = DEFAULT_CONNECTION_CONFIG.version as unknown as ClientVersion
  return { min, current: min ?? bundled }
}

/** The version a ClientPayload names; a payload without one reads as 0.0.0 (older than any minimum). */
export function payloadVersion(payload: proto.IClientPayload | undefined): ClientVersion {
  const v = payload?.userAgent?.appVersion
  return [Number(v?.primary ?? 0), Number(v?.secondary ?? 0), Number(v?.tertiary ?? 0)]
}

/** Whether the platform refuses this connection's client version. */
export function refusesVersion(policy: ClientVersionPolicy, payload: proto.IClientPayload | undefined): boolean {
  return policy.min !== undefined && compareClientVersions(payloadVersion(payload), policy.min) < 0
}
