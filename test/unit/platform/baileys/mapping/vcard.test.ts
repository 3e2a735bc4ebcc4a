import { describe, expect, it } from 'vitest'
import { buildVCard, escapeVCardText } from '../../../../../src/platform/baileys/mapping/vcard.js'

describe('vCard', () => {
  it('builds a 3.0 card with a tappable waid', () => {
    expect(buildVCard('Ana Lima', '+55 11 99999-0000')).toBe(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Ana Lima',
        'TEL;type=CELL;type=VOICE;waid=5511999990000:+5511999990000',
        'END:VCARD',
      ].join('\n'),
    )
  })

  it('escapes backslash, comma, semicolon and line breaks in the name', () => {
    expect(escapeVCardText('a\\b,c;d\ne\r\nf')).toBe('a\\\\b\\,c\\;d\\ne\\nf')
    const card = buildVCard('Doe; John,\nJr', '1')
    expect(card.split('\n')[2]).toBe('FN:Doe\\; John\\,\\nJr')
    expect(card.split('\n')).toHaveLength(5)
  })
})
