/**
 * @module actors/session/session-actor
 * One actor per session, living in its shard's worker thread. It owns the session's platform link and its state
 * machine (SPEC "States and transitions", BAILEYS-MAPPING §1):
 *
 *   awaiting QR ──scan──▶ connecting (paired; 515 restart) ──open──▶ connected
 *        │ QR deadline                                   ◀── connection lost: backoff, reconnect ──┘
 *        ▼                       logged out on the phone / reset: clear credentials, back to awaiting QR
 *     deleted (registry and data removed; later calls get 404)     replaced: disconnected, no reconnect
 *
 * Commands run one at a time through the mailbox, in arrival order. Every state change is published as a
 * snapshot to the main thread, which answers GET /session from it. Events of a link that is no longer the
 * current one (closed by us, replaced by a reconnect) are ignored, so one session never has two live links.
 *
 * The parts, under `session/`: `lifecycle` (start, reset, delete, shutdown, QR deadline), `link-reactions`
 * (link events → state, with the close-reason table in `transitions`), `link-supervisor` (the current link:
 * opening it under the session run, its generation, backoff and reconnects), `published-state` (snapshot fields
 * and publishing), `record` (persisted record and data), `commands` (what each command does, as the mailbox runs
 * it), `typing` and `qr-deadline` (timers).
 */
import { Mailbox } from './mailbox.js'
import type { ActorDeps } from './deps.js'
import { SessionLifecycle } from './lifecycle.js'
import type { ActorCommandType, CommandOf, ReplyValues } from '../../protocol/commands.js'
import { runCommand } from './commands.js'

export type { ActorDeps } from './deps.js'

export class SessionActor {
  readonly id: string
  readonly #mailbox = new Mailbox()
  readonly #session: SessionLifecycle

  constructor(deps: ActorDeps) {
    this.id = deps.record.id
    this.#session = new SessionLifecycle(deps, this.#mailbox)
  }

  /** Brings the session up (new or restored). An unpaired session past its QR deadline is deleted instead. */
  start(): Promise<void> {
    return this.#session.start()
  }

  /** True until the link first opens, shows a QR, or fails (see SessionLifecycle.isConnecting). */
  get isConnecting(): boolean {
    return this.#session.isConnecting
  }

  /** Runs a command in mailbox order. */
  run<K extends ActorCommandType>(command: CommandOf<K>, signal: AbortSignal): Promise<ReplyValues[K]> {
    return this.#mailbox.post(() => runCommand(command, this.#session, signal))
  }

  /**
   * SIGTERM, or a hand-over to another node: close the link without logging out; the session stays registered and
   * comes back on restart (or on its new node). With `settleMs`, commands still running get that long to settle;
   * past it the stop is not recorded as clean, and the run's hold (cluster mode: the lease) is given back anyway,
   * so a query Baileys leaves waiting on a closed socket cannot hold a hand-over for a minute.
   */
  async shutdown(settleMs?: number): Promise<void> {
    await this.#session.shutdown()
    // A command still running (a send waiting for its ack) settles now that the link is closed, and with it the key
    // store transaction Baileys commits after sending; only then is the stored Signal state whole.
    const settled = this.#mailbox.post(async () => true)
    if (settleMs === undefined || (await withinMs(settled, settleMs))) await this.#session.markCleanStop()
    else await this.#session.abandonStop()
  }
}

/** True when `work` resolved within `ms`, false when the time ran out first (it keeps running). */
async function withinMs(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>(resolve => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([work.then(() => true), late])
  } finally {
    clearTimeout(timer)
  }
}
