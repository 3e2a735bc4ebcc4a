/**
 * @module sandbox/handlers/encrypt
 * `xmlns='encrypt'`: prekey count, prekey upload, key-bundle digest, and bundle fetches by PN or LID jid. The four
 * post-login iqs gate `open` in Baileys, so each is answered promptly.
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { PrekeyBundle } from '../accounts.js'
import { bytes, child, children, iqError, iqResult, node } from '../nodes.js'
import type { IqHandler } from './types.js'

const be = (value: number, length: number): Buffer => {
  const out = Buffer.alloc(length)
  out.writeUIntBE(value, 0, length)
  return out
}

const bundleNode = (jid: string, bundle: PrekeyBundle): BinaryNode =>
  node('user', { jid }, [
    node('registration', {}, be(bundle.registrationId, 4)),
    node('type', {}, Buffer.from([5])),
    node('identity', {}, bundle.identity),
    node('skey', {}, [
      node('id', {}, be(bundle.signedPreKey.id, 3)),
      node('value', {}, bundle.signedPreKey.public),
      node('signature', {}, bundle.signedPreKey.signature),
    ]),
    ...(bundle.preKey
      ? [node('key', {}, [node('id', {}, be(bundle.preKey.id, 3)), node('value', {}, bundle.preKey.public)])]
      : []),
  ])

/** Strip the 0x05 type prefix the client puts on keys. */
const key32 = (buf: Buffer | undefined): Buffer =>
  buf && buf.length === 33 ? buf.subarray(1) : (buf ?? Buffer.alloc(0))

export const encryptHandler: IqHandler = (ctx, conn, iq) => {
  const companion = conn.companion
  if (child(iq, 'count')) {
    return iqResult(iq, [node('count', { value: String(companion?.preKeys.size ?? 0) })])
  }
  if (child(iq, 'digest')) {
    return iqResult(iq, [node('digest', {})])
  }
  if (child(iq, 'list') && iq.attrs.type === 'set') {
    // Prekey upload: <registration/><type/><identity/><list><key><id/><value/></key>…</list><skey/>.
    if (companion) {
      for (const key of children(child(iq, 'list'), 'key')) {
        const id = bytes(child(key, 'id'))
        const value = bytes(child(key, 'value'))
        if (id && value) companion.preKeys.set(id.readUIntBE(0, id.length), key32(value))
      }
      const skey = child(iq, 'skey')
      const skeyId = bytes(child(skey, 'id'))
      const skeyValue = bytes(child(skey, 'value'))
      const skeySig = bytes(child(skey, 'signature'))
      if (skeyId && skeyValue && skeySig)
        companion.signedPreKey = {
          id: skeyId.readUIntBE(0, skeyId.length),
          public: key32(skeyValue),
          signature: skeySig,
        }
      const registration = bytes(child(iq, 'registration'))
      if (registration?.length) companion.registrationId = registration.readUIntBE(0, registration.length)
      ctx.logger.debug(
        { phone: conn.account?.phone, device: companion.device, count: companion.preKeys.size },
        'companion uploaded prekeys',
      )
    }
    return iqResult(iq)
  }
  const keyNode = child(iq, 'key')
  if (keyNode) {
    const users: BinaryNode[] = []
    for (const user of children(keyNode, 'user')) {
      const jid = user.attrs.jid ?? ''
      ctx.stats.bump('bundleFetches') // GET /stats: each one means the client is starting a new Signal session
      const resolved = ctx.accounts.resolve(jid)
      const bundle = resolved?.account.bundleFor(resolved.device)
      users.push(
        bundle
          ? bundleNode(jid, bundle)
          : node('user', { jid }, [node('error', { code: '404', text: 'item-not-found' })]),
      )
    }
    return iqResult(iq, [node('list', {}, users)])
  }
  if (iq.attrs.type === 'set') return iqResult(iq) // rotate signed prekey and similar: accepted
  return iqError(iq, 400, 'bad-request')
}
