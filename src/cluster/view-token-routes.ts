/**
 * @module cluster/view-token-routes
 * In cluster mode a view link's token (actors/main/view-tokens.ts) is kept by the node running its session, but the
 * QR page's GET /session/qr may reach any node. So the token names its session: `<id>.<random>.<mac>`, the id in
 * base64url and a MAC of id and random part under a key derived from CLUSTER_SECRET. Any node can then tell a token
 * a node made from anything else, and forward the request to the session's node, which checks the token itself
 * (its hash, expiry, revocation). A token nobody made (a guess, a changed id) is answered where it arrives, the same
 * 404 as every unknown token, and nothing crosses. The random part keeps the 192 bits of an embedded token: the MAC
 * adds no secret, it only lets a token be routed.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import type { ViewTokenMinter } from '../actors/main/session-mode.js'

const MAC_BYTES = 16

export class ViewTokenRoutes implements ViewTokenMinter {
  readonly #key: Buffer

  constructor(clusterSecret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', clusterSecret, 'messaging-gateway cluster', 'view token v1', 32))
  }

  #mac(id: string, random: string): Buffer {
    return createHmac('sha256', this.#key).update(`${id}\n${random}`).digest().subarray(0, MAC_BYTES)
  }

  mint(id: string, random: string): string {
    return `${Buffer.from(id, 'utf8').toString('base64url')}.${random}.${this.#mac(id, random).toString('base64url')}`
  }

  /** The session a token a node made is for; undefined for anything else. */
  sessionOf(token: string): string | undefined {
    const parts = token.split('.')
    if (parts.length !== 3) return undefined
    const [idPart, random, macPart] = parts as [string, string, string]
    const id = Buffer.from(idPart, 'base64url').toString('utf8')
    const mac = Buffer.from(macPart, 'base64url')
    if (id === '' || random === '' || mac.length !== MAC_BYTES) return undefined
    return timingSafeEqual(mac, this.#mac(id, random)) ? id : undefined
  }
}
