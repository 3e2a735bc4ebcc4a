/**
 * @module test/support/binary-nodes
 * Binary nodes for the tests of the binary node encoder (src/platform/baileys/patches/binary-encoder.ts): the
 * stanzas a gateway sends, shaped as Baileys builds them (messages to contacts, groups, status and channels,
 * receipts, acks, queries, presence), with jids of every form; and a fast-check generator of random nodes that
 * reaches each rule of Baileys' encoder (tokens, packed strings, jids, byte lengths, nested lists, odd values).
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import { DOUBLE_BYTE_TOKENS, SINGLE_BYTE_TOKENS } from '@whiskeysockets/baileys/lib/WABinary/constants.js'
import fc from 'fast-check'

/** Bytes that look like ciphertext: `length` of them, from `seed`. */
export const cipher = (length: number, seed = 1) =>
  Buffer.from(Array.from({ length }, (_, i) => (i * 167 + seed * 31 + (i >> 3)) & 0xff))

const ME = '4915100000001:4@s.whatsapp.net'
const ME_LID = '201234567890123:4@lid'
const enc = (type: string, length: number, seed: number, extra: Record<string, string> = {}): BinaryNode => ({
  tag: 'enc',
  attrs: { v: '2', type, ...extra },
  content: cipher(length, seed),
})
const to = (jid: string, node: BinaryNode): BinaryNode => ({ tag: 'to', attrs: { jid }, content: [node] })
/** A text stanza as Baileys' relayMessage builds it: the participants' `to` nodes, then any other nodes. */
const textTo = (jid: string, participants: BinaryNode[], ...more: BinaryNode[]): BinaryNode => ({
  tag: 'message',
  attrs: { id: '3EB0C4F1A2B3D4E5F60718', to: jid, type: 'text' },
  content: [{ tag: 'participants', attrs: {}, content: participants }, ...more],
})

/** What a gateway's socket writes, by name; the jids and attributes decode back to themselves. */
export const STANZAS: Record<string, BinaryNode> = {
  'text to a contact (own and contact devices, device identity, privacy token)': textTo(
    '4915112345678@s.whatsapp.net',
    [
      to('4915112345678@s.whatsapp.net', enc('msg', 153, 1)),
      to('4915112345678:7@s.whatsapp.net', enc('pkmsg', 611, 2)),
      to('4915100000001:2@s.whatsapp.net', enc('msg', 169, 3)),
    ],
    { tag: 'device-identity', attrs: {}, content: cipher(162, 4) },
    { tag: 'tctoken', attrs: {}, content: cipher(28, 5) },
  ),
  'text to a contact, sessions established (two contact devices, one own, privacy token)': textTo(
    '4915112345678@s.whatsapp.net',
    [
      to('4915112345678@s.whatsapp.net', enc('msg', 153, 1)),
      to('4915112345678:7@s.whatsapp.net', enc('msg', 153, 2)),
      to('4917099887766:3@s.whatsapp.net', enc('msg', 169, 3)),
    ],
    { tag: 'tctoken', attrs: {}, content: cipher(28, 9) },
  ),
  'text to a LID contact': textTo('123456789012345@lid', [
    to('123456789012345:12@lid', enc('msg', 137, 6)),
    to('201234567890123:3@lid', enc('msg', 137, 7)),
  ]),
  'group text (sender key, LID addressing, phash)': {
    tag: 'message',
    attrs: {
      id: '3EB0AABBCCDDEEFF001122',
      to: '120363012345678901@g.us',
      type: 'text',
      addressing_mode: 'lid',
      phash: '2:Vb5M4Q==',
    },
    content: [
      enc('skmsg', 121, 8),
      { tag: 'participants', attrs: {}, content: [to('123456789012345:1@lid', enc('pkmsg', 580, 9))] },
    ],
  },
  'status update': {
    tag: 'message',
    attrs: { id: '3EB01234ABCD', to: 'status@broadcast', type: 'text' },
    content: [enc('skmsg', 201, 10), { tag: 'participants', attrs: {}, content: [to(ME, enc('msg', 99, 11))] }],
  },
  'channel post (plaintext)': {
    tag: 'message',
    attrs: { id: '3EB0FEEDFACE', to: '120363098765432109@newsletter', type: 'text' },
    content: [{ tag: 'plaintext', attrs: {}, content: cipher(64, 12) }],
  },
  'media message to a hosted device': {
    tag: 'message',
    attrs: { id: '3EB0B16B00B5', to: '5511987654321:99@hosted', type: 'media' },
    content: [to('5511987654321:99@hosted', enc('msg', 300, 13, { mediatype: 'image' }))],
  },
  'read receipt with a list': {
    tag: 'receipt',
    attrs: { id: '3EB0C4F1A2B3D4E5F60718', to: '4915112345678@s.whatsapp.net', type: 'read', t: '1732700000' },
    content: [{ tag: 'list', attrs: {}, content: [{ tag: 'item', attrs: { id: '3EB0C4F1A2B3D4E5F60719' } }] }],
  },
  'ack of a receipt': {
    tag: 'ack',
    attrs: { id: '3EB0C4F1A2B3D4E5F60718', to: '4915112345678:7@s.whatsapp.net', class: 'receipt' },
  },
  'ack of a group message': {
    tag: 'ack',
    attrs: {
      id: 'A1B2C3D4E5F6',
      to: '120363012345678901@g.us',
      class: 'message',
      participant: '123456789012345:3@lid',
      from: ME,
    },
  },
  'ack of a notification': {
    tag: 'ack',
    attrs: { id: '2104987251', to: 's.whatsapp.net', class: 'notification', type: 'encrypt' },
  },
  'usync devices query': {
    tag: 'iq',
    attrs: { id: '46212.55481-17', to: 's.whatsapp.net', type: 'get', xmlns: 'usync' },
    content: [
      {
        tag: 'usync',
        attrs: { context: 'message', mode: 'query', sid: '46212.55481-16', last: 'true', index: '0' },
        content: [
          {
            tag: 'query',
            attrs: {},
            content: [
              { tag: 'devices', attrs: { version: '2' } },
              { tag: 'lid', attrs: {} },
            ],
          },
          {
            tag: 'list',
            attrs: {},
            content: [
              { tag: 'user', attrs: { jid: '4915112345678@s.whatsapp.net' } },
              { tag: 'user', attrs: { jid: '123456789012345@lid' } },
              { tag: 'user', attrs: { jid: '5511987654321@hosted.lid' } },
            ],
          },
        ],
      },
    ],
  },
  'privacy token issuance': {
    tag: 'iq',
    attrs: { id: '46212.55481-18', to: 's.whatsapp.net', type: 'set', xmlns: 'privacy' },
    content: [
      {
        tag: 'tokens',
        attrs: {},
        content: [{ tag: 'token', attrs: { jid: ME_LID, t: '1732700000', type: 'trusted_contact' } }],
      },
    ],
  },
  'group metadata query': {
    tag: 'iq',
    attrs: { id: '46212.55481-19', to: '120363012345678901@g.us', type: 'get', xmlns: 'w:g2' },
    content: [{ tag: 'query', attrs: { request: 'interactive' } }],
  },
  'group create': {
    tag: 'iq',
    attrs: { id: '46212.55481-20', to: '@g.us', type: 'set', xmlns: 'w:g2' },
    content: [
      {
        tag: 'create',
        attrs: { subject: 'Ünïcödé group 😀 名前', key: 'C0FFEE00BADC0DE1' },
        content: [
          { tag: 'participant', attrs: { jid: '4915112345678@s.whatsapp.net' } },
          { tag: 'participant', attrs: { jid: '123456789012345@lid' } },
        ],
      },
    ],
  },
  'pre-key upload': {
    tag: 'iq',
    attrs: { id: '46212.55481-21', xmlns: 'encrypt', type: 'set', to: 's.whatsapp.net' },
    content: [
      { tag: 'registration', attrs: {}, content: cipher(4, 14) },
      { tag: 'type', attrs: {}, content: Buffer.from([5]) },
      { tag: 'identity', attrs: {}, content: cipher(32, 15) },
      {
        tag: 'list',
        attrs: {},
        content: Array.from({ length: 30 }, (_, i) => ({
          tag: 'key',
          attrs: {},
          content: [
            { tag: 'id', attrs: {}, content: cipher(3, i) },
            { tag: 'value', attrs: {}, content: cipher(32, i + 100) },
          ],
        })),
      },
    ],
  },
  ping: {
    tag: 'iq',
    attrs: { id: '46212.55481-22', to: 's.whatsapp.net', type: 'get', xmlns: 'w:p' },
    content: [{ tag: 'ping', attrs: {} }],
  },
  'presence with a name': { tag: 'presence', attrs: { name: 'Gateway Ünïcode 😀', type: 'available' } },
  typing: {
    tag: 'chatstate',
    attrs: { from: ME, to: '4915112345678@s.whatsapp.net' },
    content: [{ tag: 'composing', attrs: {} }],
  },
  'text content node': { tag: 'body', attrs: {}, content: 'hello, with a free text body' },
  'business jid and call server': {
    tag: 'call',
    attrs: { from: ME, to: '16505361212@c.us', id: 'ABCDEF0123456789ABCDEF0123456789' },
    content: [{ tag: 'offer', attrs: { 'call-id': 'ABCDEF0123456789ABCDEF0123456789', 'call-creator': ME } }],
  },
}

const tokens = [...SINGLE_BYTE_TOKENS.filter(t => t !== ''), ...DOUBLE_BYTE_TOKENS.flat()]
const charsOf = (chars: string, minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...chars), minLength, maxLength })

/** A string for each of the encoder's rules, and the edges between them. */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...tokens),
  charsOf('0123456789-.', 1, 130), // nibble-packed up to 127 characters, raw above
  charsOf('0123456789ABCDEF', 1, 130), // hex-packed
  charsOf('0123456789abcdefABCDEF', 1, 40), // lowercase hex is not packed
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', '\u0000', '\uD800', 'a\uDC00b', '😀', '\u202e', '0\u00000'),
  fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'),
  fc.integer({ min: 250, max: 260 }).map(n => 'x'.repeat(n)), // byte lengths around 255/256
  fc.integer({ min: 125, max: 131 }).map(n => 'é'.repeat(n)),
  fc
    .tuple(
      charsOf('0123456789', 1, 16),
      fc.constantFrom('1', '2', 'x', '', '01', '0x1f', '129'),
      fc.constantFrom('0', '7', '99', '255', '300', 'x', '', '1.5'),
    )
    .map(([user, agent, device]) => `${user}_${agent}:${device}@s.whatsapp.net`),
  fc
    .tuple(
      fc.oneof(charsOf('0123456789', 0, 16), fc.constantFrom(...tokens), charsOf('abc_:.-9', 0, 8)),
      fc.option(fc.constantFrom('0', '1', '3', '12', '99', '255', '256', '-1', 'x', ''), { nil: undefined }),
      fc.constantFrom(
        's.whatsapp.net',
        'lid',
        'g.us',
        'broadcast',
        'newsletter',
        'hosted',
        'hosted.lid',
        'c.us',
        'call',
        '',
        'x@y',
        'weird:host_1',
      ),
    )
    .map(([user, device, server]) => `${user}${device === undefined ? '' : `:${device}`}@${server}`),
  charsOf('ab1_:@', 1, 12), // separators anywhere
)

/** Attribute values: strings mostly; Baileys counts a value that is neither a string nor missing but does not write it. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: anyString },
  { weight: 1, arbitrary: fc.constantFrom(undefined, null, 0, 7, true, false, {}, ['x']) },
)

const byteContent = fc.oneof(
  fc.integer({ min: 0, max: 300 }).map(n => cipher(n, n)),
  fc.constantFrom(0, 1, 255, 256, 257).map(n => new Uint8Array(cipher(n, 3))),
)

/** Random nodes up to four deep: string tags, attributes and content of every kind Baileys' encoder accepts. */
export const anyNode: fc.Arbitrary<BinaryNode> = fc.letrec<{ node: BinaryNode }>(tie => ({
  node: fc.record(
    {
      tag: anyString.filter(s => s !== ''),
      attrs: fc.oneof(fc.dictionary(anyString, anyValue, { maxKeys: 5 }), fc.constantFrom(undefined, null)),
      content: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constant(undefined),
        anyString,
        byteContent,
        fc.array(
          fc.oneof(
            { weight: 6, arbitrary: tie('node') },
            { weight: 1, arbitrary: fc.constantFrom(null, undefined, 0, false, '', { tag: '' }, { attrs: {} }) },
          ),
          { maxLength: 4 },
        ),
      ),
    },
    { requiredKeys: ['tag', 'attrs'] },
  ) as fc.Arbitrary<BinaryNode>,
})).node
