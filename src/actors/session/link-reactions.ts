/**
 * @module actors/session/link-reactions
 * How the session reacts to its link's events: QR → shown, paired → connecting, open → connected, name → shown,
 * close → the next step from the `afterClose` table. The supervisor has already dropped events of abandoned
 * links, so every event here belongs to the current one.
 */
import type { Logger } from 'pino'
import type { CloseReason, LinkEvents } from '../../platform/link.js'
import type { RestrictionUpdate } from '../../protocol/restrictions.js'
import type { Conversations } from './conversations.js'
import type { RestrictionState } from './restriction-state.js'
import { renderQr } from './qr.js'
import type { TypingTimers } from './typing.js'
import type { LinkSupervisor } from './link-supervisor.js'
import type { QrDeadlineTimer } from './qr-deadline.js'
import type { SessionRecordKeeper } from './record.js'
import { afterClose } from './transitions.js'
import { notConnectedOf, outlivesQr } from './not-connected.js'
import type { PublishedState } from './published-state.js'

export interface ReactionDeps {
  published: PublishedState
  record: SessionRecordKeeper
  deadline: QrDeadlineTimer
  typing: TypingTimers
  log: Logger
  /** The account's restrictions, and its existing conversations, as the link reports them. */
  restrictions: RestrictionState
  conversations: Conversations
  isStopped: () => boolean
  /** The link supervisor reporting to these reactions (created after them, hence a getter). */
  supervisor: () => LinkSupervisor
  /** Logged out on the phone: clear credentials and start pairing over. */
  restartPairing: () => Promise<void>
}

export class LinkReactions implements LinkEvents {
  readonly #deps: ReactionDeps

  constructor(deps: ReactionDeps) {
    this.#deps = deps
  }

  qr(qr: string): void {
    const { published, record, log, isStopped } = this.#deps
    if (record.paired) return
    const ticket = published.nextQr()
    renderQr(qr).then(
      png => {
        if (!published.isLatestQr(ticket) || isStopped() || record.paired) return // a newer QR or a scan won
        published.showQr(png)
        // a QR shows the link works: only a reason that says why pairing started over stays
        if (!outlivesQr(published.notConnected)) published.notConnected = undefined
        published.publish()
      },
      err => log.error({ err }, 'QR rendering failed'),
    )
  }

  paired(me: { id: string }): void {
    const { published, record, deadline } = this.#deps
    deadline.clear()
    published.dropQr()
    published.generatedId = me.id
    published.state = 'connecting'
    published.notConnected = undefined
    published.publish()
    void record.markPaired() // logs its own failure
  }

  open(me: { id: string; name: string }): void {
    const { published, record, deadline, log } = this.#deps
    const supervisor = this.#deps.supervisor()
    deadline.clear()
    void record.markPaired()
    published.isConnected = true
    published.state = 'connected'
    published.notConnected = undefined
    published.dropQr()
    published.name = me.name
    published.generatedId = me.id
    supervisor.resetBackoff()
    published.publish()
    const link = supervisor.link
    // The picture is a nicety: fetch it in the background so the session is usable at once.
    link?.ownPicture().then(
      url => {
        if (link !== supervisor.link) return
        published.picture = url
        published.publish()
      },
      err => log.debug({ err }, 'own picture unavailable'),
    )
  }

  name(name: string): void {
    const { published } = this.#deps
    if (!published.isConnected) return
    published.name = name
    published.publish()
  }

  restrictions(update: RestrictionUpdate): void {
    const { published, restrictions } = this.#deps
    if (!restrictions.apply(update)) return
    published.restrictions = restrictions.shown
    published.publish()
  }

  conversations(phones: string[]): void {
    this.#deps.conversations.add(phones)
  }

  close(reason: CloseReason, detail: string): void {
    const { published, record, typing, log, restartPairing } = this.#deps
    const supervisor = this.#deps.supervisor()
    published.linkDown()
    typing.clear()
    log.info({ reason, detail }, 'platform link closed')
    const why = notConnectedOf(reason, detail, supervisor.clientVersion)
    if (why) {
      // once per change; a lost connection is routine (the info line above says it)
      if (why.reason !== published.notConnected?.reason && why.reason !== 'connection-lost')
        log.warn({ reason: why.reason }, why.message)
      published.notConnected = why
    }
    const step = afterClose(reason, record.paired)
    switch (step.next) {
      case 'reopen':
        void supervisor.open()
        return
      case 'restart-pairing':
        void restartPairing().catch(err => log.error({ err }, 'could not restart pairing after logout'))
        return
      case 'stay-down':
        if (step.warning) log.warn(step.warning)
        published.state = step.state
        published.publish()
        return
      case 'reconnect':
        published.state = step.state
        published.publish()
        supervisor.scheduleReconnect()
    }
  }
}
