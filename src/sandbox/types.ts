/**
 * @module sandbox/types
 * Shapes shared across the sandbox: the world document (scenario input) and the records the control API returns.
 */

/** One contact in an account's address book. */
export interface WorldContact {
  phone: string
  name?: string
}

/** A simulated account as written in a world document. Phones are digits only. */
export interface WorldAccount {
  phone: string
  name?: string
  picture?: boolean
  /** When true the phone shares its address book through app-state sync; when false it never does. */
  syncContacts?: boolean
  contacts?: WorldContact[]
  /** Status privacy: 'contacts_except' = 'blacklist', 'only_share_with' = 'whitelist' (menu vs wire names). */
  statusPrivacy?: {
    setting: 'contacts' | 'blacklist' | 'whitelist' | 'contacts_except' | 'only_share_with'
    list?: string[]
    /** How the status-privacy iq names list members: PN JIDs (default) or LID JIDs, as LID-migrated phones do. */
    addressing?: 'pn' | 'lid'
  }
  /** Moved to LID addressing by the platform: a 1:1 message addressed to its phone-number JID is refused (463). */
  lidOnly?: boolean
  /** Numbers the account had 1:1 chats with before any client paired: listed in the history sync at pairing, and
   * never a new chat for a restricted account (restrictions.ts). */
  chats?: string[]
}

export interface WorldParticipant {
  phone: string
  admin?: 'admin' | 'superadmin'
  hidePhone?: boolean
}

export interface WorldGroup {
  id: string
  name: string
  description?: string
  created?: string
  picture?: boolean
  participants: WorldParticipant[]
}

export interface WorldChannelMessage {
  type: 'text' | 'image' | 'video' | 'poll' | 'sticker' | 'document' | 'audio' | 'location'
  text?: string
  caption?: string
  seconds?: number
  name?: string
  options?: string[]
}

export interface WorldChannel {
  id: string
  name: string
  description?: string
  created?: string
  picture?: boolean
  owner?: string
  /** Phones with the ADMIN role: they manage (and may post to) the channel without owning it. */
  admins?: string[]
  /** The channel's public invite code (links are whatsapp.com/channel/<invite>); default: the id's user part. */
  invite?: string
  followers?: string[]
  messages?: WorldChannelMessage[]
}

/** The scenario a sandbox runs: accounts, groups and channels. */
export interface World {
  accounts: WorldAccount[]
  groups: WorldGroup[]
  channels: WorldChannel[]
}

/** A world document as posted: every list optional, merged into the current world. */
export interface WorldPatch {
  accounts?: WorldAccount[]
  groups?: WorldGroup[]
  channels?: WorldChannel[]
}

export interface InboxMedia {
  mimetype: string
  fileName?: string
  size: number
  sha256: string
  seconds?: number
  hasThumbnail: boolean
  /** SHA-256 (hex) and pixel size of the decrypted jpegThumbnail, so tests can tell which thumbnail was sent. */
  thumbnailSha256?: string
  thumbnailWidth?: number
  thumbnailHeight?: number
  /** Mean [r, g, b] of the thumbnail: a frame of a solid-colour video has that colour, the default one is grey. */
  thumbnailMeanColor?: [number, number, number]
  /** Images: pixel size of the decrypted picture (e.g. a status image compressed to fit 1080x1920). */
  width?: number
  height?: number
  ptt?: boolean
}

/** One message a simulated phone received and decrypted (GET /accounts/{phone}/inbox). */
export interface InboxMessage {
  id: string
  chat: string
  from: string
  /** The `to` the sender's stanza was addressed to (a PN, LID or group JID): shows how the sender addressed it. */
  to?: string
  type: 'text' | 'image' | 'video' | 'audio' | 'document' | 'location' | 'contact' | 'sticker' | 'other'
  text?: string
  caption?: string
  media?: InboxMedia
  location?: { latitude: number; longitude: number; name?: string; address?: string }
  contact?: { displayName: string; vcard: string }
  status: boolean
  /**
   * Statuses only: whether the recipient's phone shows it — on the platform a status is visible only to people who
   * saved the sender's number (the recipient's world contacts include the sender).
   */
  visible?: boolean
  backgroundColor?: string
  /** Set when media could not be fetched or verified: the test sees why. */
  error?: string
  receivedAt: string
}

export interface PresenceEvent {
  from: string
  chat: string
  state: 'composing' | 'recording' | 'paused'
  at: string
}

/** Fault switches set through POST /faults. */
export interface Faults {
  rejectRecipient?: string
  /** Error code the reject ack carries; 479 unless set. */
  rejectCode?: number
  delayMs?: number
  /** When set, delayMs applies only to the connections of this account (a phone number): one slow tenant. */
  delayAccount?: string
  /** Sign the Noise certificate chain with a root key other than the one GET /trust publishes. */
  wrongChainKey?: boolean
  /** Sign pair-success's account signature (ADV) with a key other than the phone's identity it names. */
  wrongAccountSignature?: boolean
  /**
   * Channels refuse, with error 400, the posts the official apps cannot make there (location, contact, anything but
   * text/image/video/audio/document/sticker/poll). Off by default: the live platform's answer is unverified.
   */
  strictChannelPosts?: boolean
  /** This account's phone fails its first decryption of the next `failDecryptCount` 1:1 messages sent to it and
   * sends a retry receipt instead; the message sent again is accepted (sandbox/retry-receipt.ts). */
  failDecryptOf?: string
  /** How many messages still fail (1 unless set); counts down as they do. */
  failDecryptCount?: number
  /** Hold each retry receipt until the sending device next logs in (a sender that restarted sees it then). */
  retryAfterReconnect?: boolean
  /** Pairing by code: keep every companion_hello unanswered until this switch goes off (then answer it as the
   * switches say at that moment), so a test sees what a client does while the platform has not decided. */
  holdLinkCodes?: boolean
  /** Pairing by code: refuse each companion_hello with this error code (429 `rate-overlimit`, 400 `bad-request`…). */
  linkCodeError?: number
  /** Pairing by code: codes registered from now on expire after this many ms (default 180 000). */
  linkCodeTtlMs?: number
  /** Logins of this account are refused with `<failure reason="403"/>`, as the platform refuses a banned or
   * restricted account (registration still works: a new pairing is refused at its first login). */
  refuseAccount?: string
}
