/**
 * @module sandbox/nodes
 * Small helpers for building and reading binary nodes (the XML-like stanzas of the platform protocol).
 */
import type { BinaryNode } from '@whiskeysockets/baileys'

export const S_WHATSAPP_NET = 's.whatsapp.net'

export const node = (
  tag: string,
  attrs: Record<string, string> = {},
  content?: BinaryNode[] | Uint8Array | string,
): BinaryNode => ({ tag, attrs, content: typeof content === 'string' ? Buffer.from(content) : content }) as BinaryNode

export const children = (parent: BinaryNode | undefined, tag?: string): BinaryNode[] =>
  Array.isArray(parent?.content) ? (parent.content as BinaryNode[]).filter(c => !tag || c.tag === tag) : []

export const child = (parent: BinaryNode | undefined, tag: string): BinaryNode | undefined => children(parent, tag)[0]

export const bytes = (n: BinaryNode | undefined): Buffer | undefined => {
  const content = n?.content
  if (content instanceof Uint8Array) return Buffer.from(content)
  if (typeof content === 'string') return Buffer.from(content, 'utf8')
  return undefined
}

export const unixNow = (): string => String(Math.floor(Date.now() / 1000))

/** `<iq type='result' id=… from='s.whatsapp.net'>content</iq>` answering `iq`. */
export const iqResult = (iq: BinaryNode, content?: BinaryNode[] | Uint8Array): BinaryNode =>
  node(
    'iq',
    {
      type: 'result',
      id: iq.attrs.id ?? '',
      from: iq.attrs.to && iq.attrs.to !== S_WHATSAPP_NET ? iq.attrs.to : S_WHATSAPP_NET,
    },
    content,
  )

/** `<iq type='error'><error code text/></iq>`; Baileys turns it into a Boom with that status code. */
export const iqError = (iq: BinaryNode, code: number, text: string): BinaryNode =>
  node('iq', { type: 'error', id: iq.attrs.id ?? '', from: iq.attrs.to ?? S_WHATSAPP_NET }, [
    node('error', { code: String(code), text }),
  ])

/** 3-byte big-endian length prefix framing, both directions. */
export function frame(body: Uint8Array): Buffer {
  const out = Buffer.alloc(3 + body.length)
  out.writeUIntBE(body.length, 0, 3)
  out.set(body, 3)
  return out
}
