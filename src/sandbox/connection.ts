/**
 * @module sandbox/connection
 * One client WebSocket: framing, the Noise handshake, then encrypted binary nodes in both directions. What the
 * decoded ClientPayload means (registration or login) and what each stanza does is decided by the router the
 * connection is given, so this file knows transport only.
 */
import { decodeBinaryNode, encodeBinaryNode, NOISE_WA_HEADER, proto } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { WebSocket } from 'ws'
import type { Account, Companion, CompanionLink } from './accounts.js'
import type { SandboxContext } from './context.js'
import { NoiseServerHandshake, type TransportCipher } from './noise/handshake.js'
import { frame, node } from './nodes.js'

export interface ConnectionRouter {
  /** Called once the handshake is done and the ClientPayload is known. */
  onAuthenticated(conn: CompanionConnection): Promise<void>
  /** Called for every stanza the client sends after the handshake. */
  onNode(conn: CompanionConnection, stanza: BinaryNode): Promise<void>
  /** Called instead of onNode (and instead of answering a pending query) for a stanza read after supersede(). */
  onSupersededNode(conn: CompanionConnection, stanza: BinaryNode): void
  onClose(conn: CompanionConnection): void
}

interface PendingQuery {
  resolve: (node: BinaryNode) => void
  reject: (err: Error) => void
  timer: NodeJS.Timeout
}

let connectionSeq = 0

export class CompanionConnection implements CompanionLink {
  readonly id = ++connectionSeq
  clientStatic?: Buffer
  payload?: proto.ClientPayload
  /** Set after a successful login. */
  account?: Account
  companion?: Companion
  closed = false
  /**
   * Set by supersede(): a newer login of the same device replaced this connection. The 440 and the close that
   * follow take time (ws waits for the client's close frame, up to 30 s, and a stopped client sends none), but a
   * replaced connection must not deliver a message or change the device's keys: what it still sends is counted,
   * not acted on.
   */
  #superseded = false

  #inBytes: Buffer = Buffer.alloc(0)
  #gotIntro = false
  #stage: 'hello' | 'finish' | 'transport' = 'hello'
  #handshake: NoiseServerHandshake
  #transport?: TransportCipher
  #frames: Promise<void> = Promise.resolve()
  #sends: Promise<void> = Promise.resolve()
  #pending = new Map<string, PendingQuery>()
  #tag = 0

  constructor(
    private readonly ctx: SandboxContext,
    private readonly ws: WebSocket,
    private readonly router: ConnectionRouter,
    /** The address the client connected from (its proxy's, when it goes through one). */
    readonly remoteAddress = 'unknown',
  ) {
    this.#handshake = new NoiseServerHandshake(ctx.noise.staticKeyPair, ctx.faults.certChainFor(ctx.noise))
    ws.on('message', (data: Buffer) => this.#onData(data))
    ws.on('close', () => this.#onClose())
    ws.on('error', err => ctx.logger.debug({ err, conn: this.id }, 'client socket error'))
  }

  /** Marks this connection as replaced by a newer login: every frame read from now on is dropped and reported. */
  supersede(): void {
    this.#superseded = true
  }

  /** Stanza ids the sandbox generates for its own iqs. */
  nextId(): string {
    return `sbx-${this.id}-${++this.#tag}`
  }

  #onData(data: Buffer): void {
    let chunk = Buffer.from(data)
    if (!this.#gotIntro) {
      // First message = 'WA' 6 3 intro header + the first frame (no edge routing: the sandbox never sends it).
      if (chunk.length < 4 || !chunk.subarray(0, 4).equals(NOISE_WA_HEADER)) {
        this.ctx.logger.warn({ conn: this.id }, 'client did not start with the WA intro header')
        this.terminate()
        return
      }
      this.#gotIntro = true
      chunk = chunk.subarray(4)
    }
    this.#inBytes = Buffer.concat([this.#inBytes, chunk])
    while (this.#inBytes.length >= 3) {
      const size = this.#inBytes.readUIntBE(0, 3)
      if (this.#inBytes.length < size + 3) break
      const body = this.#inBytes.subarray(3, size + 3)
      this.#inBytes = this.#inBytes.subarray(size + 3)
      // Superseded or not is decided when the frame is read off the socket, not when its turn to decode comes: a
      // frame read before the newer login is an ordinary stanza, one read after it is a superseded one.
      const superseded = this.#superseded
      // Frames are handled strictly in order: decoding is async and counters must not interleave.
      this.#frames = this.#frames
        .then(() => this.#onFrame(body, superseded))
        .catch(err => {
          this.ctx.logger.warn({ err, conn: this.id }, 'closing connection after a bad frame')
          this.terminate()
        })
    }
  }

  async #onFrame(body: Buffer, superseded: boolean): Promise<void> {
    if (this.closed) return
    switch (this.#stage) {
      case 'hello': {
        const hello = proto.HandshakeMessage.decode(body).clientHello
        if (!hello?.ephemeral) throw new Error('expected ClientHello')
        this.#writeRaw(this.#handshake.serverHello(hello.ephemeral))
        this.#stage = 'finish'
        return
      }
      case 'finish': {
        const finish = proto.HandshakeMessage.decode(body).clientFinish
        if (!finish) throw new Error('expected ClientFinish')
        const { clientStatic, payload, transport } = this.#handshake.clientFinish(finish)
        this.clientStatic = clientStatic
        this.payload = payload
        this.#transport = transport
        this.#stage = 'transport'
        await this.router.onAuthenticated(this)
        return
      }
      case 'transport': {
        if (!this.#transport) return
        // Decrypted even when superseded: the Noise counter must advance, and the report names the stanza.
        const stanza = await decodeBinaryNode(this.#transport.decrypt(body))
        if (superseded) {
          this.router.onSupersededNode(this, stanza)
          return
        }
        const id = stanza.attrs.id
        if (stanza.tag === 'iq' && id && (stanza.attrs.type === 'result' || stanza.attrs.type === 'error')) {
          const pending = this.#pending.get(id)
          if (pending) {
            this.#pending.delete(id)
            clearTimeout(pending.timer)
            pending.resolve(stanza)
            return
          }
        }
        // Stanzas are handled concurrently (a slow media download must not stall pings), but started in order.
        void this.router.onNode(this, stanza).catch(err => {
          this.ctx.logger.warn({ err, tag: stanza.tag, xmlns: stanza.attrs.xmlns }, 'error handling stanza')
        })
      }
    }
  }

  #writeRaw(data: Uint8Array): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return
    this.ws.send(frame(data))
  }

  #writeNode(stanza: BinaryNode): void {
    if (!this.#transport || this.closed) return
    this.#writeRaw(this.#transport.encrypt(encodeBinaryNode(stanza)))
  }

  /** Sends a stanza; with the delay fault on, every stanza waits delayMs (order kept: counters are sequential). */
  send(stanza: BinaryNode): void {
    const delayMs = this.ctx.faults.delayFor(this.account?.phone)
    if (delayMs <= 0) {
      this.#sends = this.#sends.then(() => this.#writeNode(stanza))
      return
    }
    this.#sends = this.#sends
      .then(() => new Promise<void>(resolve => setTimeout(resolve, delayMs)))
      .then(() => this.#writeNode(stanza))
  }

  /** Sends an iq the client must answer; resolves with the answer. */
  query(stanza: BinaryNode, timeoutMs = 30_000): Promise<BinaryNode> {
    const id = stanza.attrs.id ?? this.nextId()
    stanza.attrs.id = id
    return new Promise<BinaryNode>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id)
        reject(new Error(`client did not answer ${stanza.tag} ${id}`))
      }, timeoutMs)
      this.#pending.set(id, { resolve, reject, timer })
      this.send(stanza)
    })
  }

  streamError(code: number, child?: BinaryNode): void {
    this.send(node('stream:error', { code: String(code) }, child ? [child] : undefined))
    // Let the error frame leave before the close; Baileys ends on whichever it sees first, and reports the error.
    this.#sends = this.#sends
      .then(() => new Promise<void>(resolve => setTimeout(resolve, 50)))
      .then(() => {
        if (!this.closed) this.ws.close()
      })
  }

  terminate(): void {
    this.ws.terminate()
    this.#onClose()
  }

  #onClose(): void {
    if (this.closed) return
    this.closed = true
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer)
      pending.reject(new Error('connection closed'))
    }
    this.#pending.clear()
    this.router.onClose(this)
  }
}
