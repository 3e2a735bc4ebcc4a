/**
 * @module actors/session/link-reactions
 * How the session reacts to its link's events: QR → shown, paired → connecting, open → connected, name → shown,
 * close → the next step from the `afterClose` table. The connection has already dropped events of abandoned
 * links, so every event here belongs to the current one.
 */
import type { Logger } from 'pino'
import type { CloseReason, LinkEvents } from '../../platform/link.js'
import { renderQr } from './qr.js'
import type { TypingTimers } from './typing.js'
import type { LinkSupervisor } from './link-supervisor.js'
import type { QrDeadlineTimer } from './qr-deadline.js'
import type { SessionRecordKeeper } from './record.js'
import { afterClose } from './transitions.js'
import type { PublishedState } from './published-state.js'

export interface ReactionDeps {
  view: PublishedState
  record: SessionRecordKeeper
  deadline: QrDeadlineTimer
  typing: TypingTimers
  log: Logger
  isStopped: () => boolean
  /** The connection reporting to these reactions (created after them, hence a getter). */
  connection: () => LinkSupervisor
  /** Logged out on the phone: clear credentials and start pairing over. */
  restartPairing: () => Promise<void>
}

export class LinkReactions implements LinkEvents {
  readonly #deps: ReactionDeps

  constructor(deps: ReactionDeps) {
    this.#deps = deps
  }

  qr(qr: string): void {
    const { view, record, log, isStopped } = this.#deps
    if (record.paired) return
    const ticket = view.nextQr()
    renderQr(qr).then(
      png => {
        if (!view.isLatestQr(ticket) || isStopped() || record.paired) return // a newer QR or a scan won
        view.showQr(png)
        view.publish()
      },
      err => log.error({ err }, 'QR rendering failed'),
    )
  }

  paired(me: { id: string }): void {
    const { view, record, deadline } = this.#deps
    deadline.clear()
    view.dropQr()
    view.generatedId = me.id
    view.state = 'connecting'
    view.publish()
    void record.markPaired() // logs its own failure
  }

  open(me: { id: string; name: string }): void {
    const { view, record, deadline, log } = this.#deps
    const connection = this.#deps.connection()
    deadline.clear()
    void record.markPaired()
    view.isConnected = true
    view.state = 'connected'
    view.dropQr()
    view.name = me.name
    view.generatedId = me.id
    connection.resetBackoff()
    view.publish()
    const link = connection.link
    // The picture is a nicety: fetch it in the background so the session is usable at once.
    link?.ownPicture().then(
      url => {
        if (link !== connection.link) return
        view.picture = url
        view.publish()
      },
      err => log.debug({ err }, 'own picture unavailable'),
    )
  }

  name(name: string): void {
    const { view } = this.#deps
    if (!view.isConnected) return
    view.name = name
    view.publish()
  }

  close(reason: CloseReason, detail: string): void {
    const { view, record, typing, log, restartPairing } = this.#deps
    const connection = this.#deps.connection()
    view.linkDown()
    typing.clear()
    log.info({ reason, detail }, 'platform link closed')
    const step = afterClose(reason, record.paired)
    switch (step.next) {
      case 'reopen':
        void connection.open()
        return
      case 'restart-pairing':
        void restartPairing().catch(err => log.error({ err }, 'could not restart pairing after logout'))
        return
      case 'stay-down':
        if (step.warning) log.warn(step.warning)
        view.state = step.state
        view.publish()
        return
      case 'reconnect':
        view.state = step.state
        view.publish()
        connection.scheduleReconnect()
    }
  }
}
