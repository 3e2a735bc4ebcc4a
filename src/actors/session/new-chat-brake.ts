/**
 * @module actors/session/new-chat-brake
 * The brake on new chats. While the platform's reach-out timelock is in force, or the new-chat cap is `CAPPED`,
 * every further attempt to message someone new counts as another reach-out and can lengthen the restriction; so a
 * 1:1 send (or typing) to a number the account has no conversation with is refused here, before anything reaches
 * the platform: 429 `account restricted: …` with `Retry-After` until the restriction's end, or 403 when no end is
 * known. Existing conversations, groups, channels and statuses are not braked. NEW_CHATS_PER_DAY (0 = off) is the
 * operator's own, lower limit of new chats a session may open per UTC day, refused the same way.
 *
 * The check is one set lookup for a known number; only a new number reads the restrictions. Commands of a session
 * run one at a time (mailbox.ts), so a check and the `opened` after its send cannot interleave with another's.
 */
import { GatewayError, retryAfterFromMs } from '../../protocol/errors.js'
import { restrictionInForce } from '../../protocol/restrictions.js'
import type { Conversations } from './conversations.js'
import type { RestrictionState } from './restriction-state.js'

const DAY_MS = 86_400_000

export class NewChatBrake {
  readonly #conversations: Conversations
  readonly #restrictions: RestrictionState
  readonly #perDay: number
  /** The UTC day (epoch ms of its midnight) the count is of, and the new chats opened in it. */
  #day = 0
  #openedToday = 0

  constructor(conversations: Conversations, restrictions: RestrictionState, perDay: number) {
    this.#conversations = conversations
    this.#restrictions = restrictions
    this.#perDay = perDay
  }

  /** Throws the refusal when a chat with `phone` would be a new one and may not be opened now. */
  check(phone: string, now = Date.now()): void {
    if (this.#conversations.has(phone)) return
    const restriction = restrictionInForce(this.#restrictions.current, now)
    if (restriction) {
      if (restriction.until === null)
        throw new GatewayError('ACCOUNT_RESTRICTED_NO_END', { restriction: restriction.what })
      throw new GatewayError('ACCOUNT_RESTRICTED', {
        restriction: restriction.what,
        until: new Date(restriction.until).toISOString(),
        retryAfterSeconds: retryAfterFromMs(restriction.until - now),
      })
    }
    if (this.#perDay > 0 && this.#today(now) >= this.#perDay) {
      const until = this.#day + DAY_MS
      throw new GatewayError('NEW_CHATS_PER_DAY', {
        max: this.#perDay,
        until: new Date(until).toISOString(),
        retryAfterSeconds: retryAfterFromMs(until - now),
      })
    }
  }

  /** A 1:1 message to `phone` went out: from now on it is an existing conversation. */
  opened(phone: string, now = Date.now()): void {
    if (this.#conversations.has(phone)) {
      this.#conversations.add([phone], now)
      return
    }
    this.#today(now)
    this.#openedToday++
    this.#conversations.add([phone], now)
  }

  /** New chats opened today, the count restarting at UTC midnight. */
  #today(now: number): number {
    const day = now - (now % DAY_MS)
    if (day !== this.#day) {
      this.#day = day
      this.#openedToday = 0
    }
    return this.#openedToday
  }
}
