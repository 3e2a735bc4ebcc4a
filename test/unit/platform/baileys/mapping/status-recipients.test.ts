import type { BinaryNode } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import type { GatewayError } from '../../../../../src/protocol/errors.js'
import {
  batches,
  parseStatusPrivacy,
  pickStatusRecipients,
} from '../../../../../src/platform/baileys/mapping/status-recipients.js'

const list = (type: string, jids: string[], def = true): BinaryNode => ({
  tag: 'list',
  attrs: { type, ...(def ? { default: 'true' } : {}) },
  content: jids.map(jid => ({ tag: 'user', attrs: { jid } })),
})
const iq = (...lists: BinaryNode[]): BinaryNode => ({
  tag: 'iq',
  attrs: {},
  content: [{ tag: 'privacy', attrs: {}, content: lists }],
})

const me = '5500000000000:12@s.whatsapp.net'
const ownBare = '5500000000000@s.whatsapp.net'
const contacts = [
  { id: '5511111111111@s.whatsapp.net', name: 'Ana' },
  { id: '5522222222222@s.whatsapp.net', name: 'Bruno', lid: '222@lid' },
  { id: '5533333333333@s.whatsapp.net', name: '' }, // not address book
]

const code = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    return (e as GatewayError).code
  }
  return undefined
}

describe('status privacy', () => {
  it('parses the default list; no answer means contacts', () => {
    expect(
      parseStatusPrivacy(iq(list('blacklist', ['1@s.whatsapp.net'], false), list('whitelist', ['2@s.whatsapp.net']))),
    ).toEqual({ type: 'whitelist', jids: ['2@s.whatsapp.net'] })
    expect(parseStatusPrivacy(undefined)).toEqual({ type: 'contacts', jids: [] })
    expect(parseStatusPrivacy(iq())).toEqual({ type: 'contacts', jids: [] })
  })

  it('whitelist: exactly the list plus own jid; empty list is an error', () => {
    expect(pickStatusRecipients({ type: 'whitelist', jids: ['5577777777777:3@s.whatsapp.net'] }, [], me)).toEqual([
      '5577777777777@s.whatsapp.net',
      ownBare,
    ])
    expect(code(() => pickStatusRecipients({ type: 'whitelist', jids: [] }, contacts, me))).toBe(
      'STATUS_ONLY_SHARE_EMPTY',
    )
  })

  it('contacts: named address-book entries plus own jid; none is an error', () => {
    expect(pickStatusRecipients({ type: 'contacts', jids: [] }, contacts, me)).toEqual([
      '5511111111111@s.whatsapp.net',
      '5522222222222@s.whatsapp.net',
      ownBare,
    ])
    expect(
      code(() => pickStatusRecipients({ type: 'contacts', jids: [] }, [{ id: 'x@s.whatsapp.net', name: '' }], me)),
    ).toBe('CONTACTS_NOT_SYNCED')
  })

  it('blacklist: address book minus the list (by PN or LID)', () => {
    expect(pickStatusRecipients({ type: 'blacklist', jids: ['222@lid'] }, contacts, me)).toEqual([
      '5511111111111@s.whatsapp.net',
      ownBare,
    ])
    expect(pickStatusRecipients({ type: 'blacklist', jids: ['5511111111111@s.whatsapp.net'] }, contacts, me)).toEqual([
      '5522222222222@s.whatsapp.net',
      ownBare,
    ])
    expect(code(() => pickStatusRecipients({ type: 'blacklist', jids: [] }, [], me))).toBe('CONTACTS_NOT_SYNCED')
  })

  it('splits recipients into batches', () => {
    expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]])
    expect(batches([], 500)).toEqual([])
  })
})
