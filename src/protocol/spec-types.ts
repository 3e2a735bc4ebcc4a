/**
 * @module protocol/spec-types
 * The resources of SPEC.md, field for field. Response bodies carry exactly these fields, no more and no fewer.
 */

export interface Session {
  id: string
  generatedId: string
  name: string
  sessionId: string
  isConnected: boolean
  qrcode: string
  picture: string
  /** Not in the spec: why the session is not connected (a short code), absent when connected or nothing failed. */
  reason?: string
  /** Not in the spec: the same for a person. */
  reasonMessage?: string
}

export interface Group {
  id: string
  name: string
  description: string
  picture: string
  created: string | null
}

export interface GroupMember {
  id: string
  name: string
  phone: string
}

export interface Channel {
  id: string
  name: string
  picture: string
  isOwner: boolean
  created: string
}

export type ChannelMessageType = 'text' | 'image' | 'video' | 'poll' | 'sticker'

export interface ChannelMessage {
  id: string
  serverId: number
  url: string
  type: ChannelMessageType
  text: string
  image?: { url: string; thumbnail: string; mimetype: string }
  video?: { url: string; thumbnail: string; duration: number; mimetype: string }
  sticker?: { url: string; mimetype: string }
  polling?: { name: string; options: string[] }
  created: string
}

export interface ChannelPage {
  docs: ChannelMessage[]
  before: number
}

/** Where a message goes, after the spec's precedence (group > newsletter > phone) and phone normalisation. */
export type Destination =
  | { kind: 'phone'; phone: string } // digits only
  | { kind: 'group'; jid: string } // ...@g.us
  | { kind: 'channel'; jid: string } // ...@newsletter

export type TypingDestination = Extract<Destination, { kind: 'phone' } | { kind: 'group' }>

export interface ImageInput {
  url: string
  mimetype: string
  thumbnail?: string
}
export interface VideoInput {
  url: string
  mimetype: string
  duration: number
  thumbnail?: string
}
export interface AudioInput {
  url: string
  mimetype: string
  duration: number
}
export interface DocumentInput {
  url: string
  name: string
  size: number
  mimetype: string
}
export interface LocationInput {
  latitude: number
  longitude: number
  name?: string
  address?: string
}
export interface ContactInput {
  name: string
  phone: string
} // phone: digits only after normalisation

/** A validated POST /message body, minus the destination. `text` is the caption for image/video/document. */
export type MessageContent =
  | { type: 'text'; text: string }
  | { type: 'image'; image: ImageInput; text?: string }
  | { type: 'video'; video: VideoInput; text?: string }
  | { type: 'audio'; audio: AudioInput }
  | { type: 'document'; document: DocumentInput; text?: string }
  | { type: 'location'; location: LocationInput }
  | { type: 'contact'; contact: ContactInput }

export const MESSAGE_TYPES = ['text', 'image', 'video', 'audio', 'document', 'location', 'contact'] as const

/** A validated POST /status body. */
export type StatusContent =
  | { type: 'text'; text: string }
  | { type: 'image'; image: ImageInput; text?: string }
  | { type: 'video'; video: VideoInput; text?: string }

export const STATUS_TYPES = ['text', 'image', 'video'] as const

export type TypingKind = 'text' | 'audio'
