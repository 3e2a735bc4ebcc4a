/**
 * @module sandbox/certs
 * Key material made fresh at every start: the Noise certificate chain (root → intermediate → leaf over the server's
 * static key, signed with libsignal's XEdDSA exactly as the platform does) and a TLS CA + 127.0.0.1 leaf for the
 * media host, generated with the `selfsigned` library (no openssl CLI).
 */
import { Curve, proto } from '@whiskeysockets/baileys'
import { generate } from 'selfsigned'

export interface KeyPair {
  private: Buffer
  public: Buffer
}

export interface NoiseIdentity {
  /** 32-byte root public key; the client puts it in WA_CERT_DETAILS.PUBLIC_KEY. */
  rootPublicKey: Buffer
  /** The server's static Noise key pair (the leaf certificate's key). */
  staticKeyPair: KeyPair
  /** Encoded proto.CertChain sent (encrypted) in ServerHello.payload. */
  certChain: Buffer
  /**
   * The same chain with the intermediate signed by an impostor root instead of the published one (fault
   * `wrongChainKey`): what a man in the middle holding its own keys would present. A checking client refuses it.
   */
  impostorCertChain: Buffer
}

/** A Curve25519 key pair as Buffers (32-byte public key, no type prefix). */
export function newKeyPair(): KeyPair {
  const pair = Curve.generateKeyPair()
  return { private: Buffer.from(pair.private), public: Buffer.from(pair.public) }
}

export function makeNoiseIdentity(): NoiseIdentity {
  const root = newKeyPair()
  const intermediate = newKeyPair()
  const staticKeyPair = newKeyPair()
  const now = Math.floor(Date.now() / 1000)
  const details = (serial: number, issuerSerial: number, key: Buffer): Buffer =>
    Buffer.from(
      proto.CertChain.NoiseCertificate.Details.encode({
        serial,
        issuerSerial,
        key,
        notBefore: now - 3600,
        notAfter: now + 365 * 24 * 3600,
      }).finish(),
    )
  // issuerSerial 0 is what the client compares against WA_CERT_DETAILS.SERIAL.
  const intermediateDetails = details(1, 0, intermediate.public)
  const leafDetails = details(2, 1, staticKeyPair.public)
  const leafSignature = Buffer.from(Curve.sign(intermediate.private, leafDetails))
  const chainSignedBy = (rootKey: KeyPair): Buffer =>
    Buffer.from(
      proto.CertChain.encode({
        intermediate: {
          details: intermediateDetails,
          signature: Buffer.from(Curve.sign(rootKey.private, intermediateDetails)),
        },
        leaf: { details: leafDetails, signature: leafSignature },
      }).finish(),
    )
  return {
    rootPublicKey: root.public,
    staticKeyPair,
    certChain: chainSignedBy(root),
    impostorCertChain: chainSignedBy(newKeyPair()),
  }
}

export interface TlsMaterial {
  caCert: string
  key: string
  cert: string
}

/** A throwaway CA and a leaf for IP 127.0.0.1 / localhost signed by it. */
export async function makeTlsMaterial(): Promise<TlsMaterial> {
  const notAfterDate = new Date(Date.now() + 30 * 24 * 3600 * 1000)
  const ca = await generate([{ name: 'commonName', value: 'Platform Sandbox CA' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  })
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  })
  return { caCert: ca.cert, key: leaf.private, cert: leaf.cert }
}
