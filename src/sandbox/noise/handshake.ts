/**
 * @module sandbox/noise/handshake
 * The server half of the platform's Noise_XX variant, mirroring Baileys' Utils/noise-handler.js step for step.
 * Platform quirks: during the handshake one key and one counter serve both directions (reset on every mix), the IV is
 * 8 zero bytes + a u32 BE counter and the AAD is the running hash; after the split the server encrypts with the
 * client's read key and decrypts with its write key, each with its own counter and an empty AAD.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto'
import { Curve, hkdf, NOISE_MODE, NOISE_WA_HEADER, proto } from '@whiskeysockets/baileys'
import { newKeyPair, type KeyPair } from '../certs.js'

const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest()
const EMPTY = Buffer.alloc(0)

const iv = (counter: number): Buffer => {
  const out = Buffer.alloc(12)
  out.writeUInt32BE(counter, 8)
  return out
}

function gcmEncrypt(plaintext: Uint8Array, key: Uint8Array, counter: number, aad: Uint8Array): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, iv(counter))
  cipher.setAAD(aad)
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
}

function gcmDecrypt(ciphertext: Uint8Array, key: Uint8Array, counter: number, aad: Uint8Array): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv(counter))
  decipher.setAAD(aad)
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
  return Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()])
}

/** Post-handshake cipher: separate keys and counters per direction. */
export class TransportCipher {
  #encKey: Buffer
  #decKey: Buffer
  #writeCounter = 0
  #readCounter = 0
  constructor(encKey: Buffer, decKey: Buffer) {
    this.#encKey = encKey
    this.#decKey = decKey
  }
  encrypt(plaintext: Uint8Array): Buffer {
    return gcmEncrypt(plaintext, this.#encKey, this.#writeCounter++, EMPTY)
  }
  decrypt(ciphertext: Uint8Array): Buffer {
    return gcmDecrypt(ciphertext, this.#decKey, this.#readCounter++, EMPTY)
  }
}

export interface ClientFinishResult {
  /** The client's static Noise public key (creds.noiseKey.public). */
  clientStatic: Buffer
  payload: proto.ClientPayload
  transport: TransportCipher
}

/** One handshake, one connection. Call `serverHello` with the ClientHello, then `clientFinish`. */
export class NoiseServerHandshake {
  #hash: Buffer
  #salt: Buffer
  #key: Buffer
  #counter = 0
  #ephemeral: KeyPair = newKeyPair()

  constructor(
    private readonly staticKeyPair: KeyPair,
    private readonly certChain: Buffer,
  ) {
    const mode = Buffer.from(NOISE_MODE)
    this.#hash = mode.length === 32 ? mode : sha256(mode)
    this.#salt = this.#hash
    this.#key = this.#hash
    this.#authenticate(NOISE_WA_HEADER)
  }

  #authenticate(data: Uint8Array): void {
    this.#hash = sha256(Buffer.concat([this.#hash, data]))
  }

  #mix(sharedSecret: Uint8Array): void {
    const out = Buffer.from(hkdf(Buffer.from(sharedSecret), 64, { salt: this.#salt, info: '' }))
    this.#salt = out.subarray(0, 32)
    this.#key = out.subarray(32)
    this.#counter = 0
  }

  #encrypt(plaintext: Uint8Array): Buffer {
    const out = gcmEncrypt(plaintext, this.#key, this.#counter++, this.#hash)
    this.#authenticate(out)
    return out
  }

  #decrypt(ciphertext: Uint8Array): Buffer {
    const out = gcmDecrypt(ciphertext, this.#key, this.#counter++, this.#hash)
    this.#authenticate(ciphertext)
    return out
  }

  /** Answer a ClientHello: returns the encoded HandshakeMessage{serverHello}. */
  serverHello(clientEphemeral: Uint8Array): Buffer {
    this.clientEphemeral = Buffer.from(clientEphemeral)
    this.#authenticate(clientEphemeral)
    this.#authenticate(this.#ephemeral.public)
    this.#mix(Curve.sharedKey(this.#ephemeral.private, this.clientEphemeral))
    const staticEnc = this.#encrypt(this.staticKeyPair.public)
    this.#mix(Curve.sharedKey(this.staticKeyPair.private, this.clientEphemeral))
    const payloadEnc = this.#encrypt(this.certChain)
    return Buffer.from(
      proto.HandshakeMessage.encode({
        serverHello: { ephemeral: this.#ephemeral.public, static: staticEnc, payload: payloadEnc },
      }).finish(),
    )
  }

  clientEphemeral: Buffer = EMPTY

  /** Process ClientFinish; throws if any AEAD check fails. */
  clientFinish(message: proto.HandshakeMessage.IClientFinish): ClientFinishResult {
    if (!message.static || !message.payload) throw new Error('ClientFinish without static or payload')
    const clientStatic = this.#decrypt(message.static)
    this.#mix(Curve.sharedKey(this.#ephemeral.private, clientStatic))
    const payload = proto.ClientPayload.decode(this.#decrypt(message.payload))
    const split = Buffer.from(hkdf(EMPTY, 64, { salt: this.#salt, info: '' }))
    // The client encrypts with the first half and decrypts with the second; the server mirrors that.
    const transport = new TransportCipher(split.subarray(32), split.subarray(0, 32))
    return { clientStatic, payload, transport }
  }
}
