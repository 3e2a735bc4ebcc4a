/**
 * @module platform/baileys/mapping/vcard
 * The vCard 3.0 sent for a `contact` message (BAILEYS-MAPPING §2.3). `waid` makes the card tappable
 * ("Message" / "Add") on the phone; it must be digits only.
 */

/** vCard 3.0 text escaping: backslash, comma, semicolon, line breaks. */
export function escapeVCardText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/,/g, '\\,')
    .replace(/;/g, '\\;')
    .replace(/\r\n|\r|\n/g, '\\n')
}

export function buildVCard(name: string, phone: string): string {
  const digits = phone.replace(/\D/g, '')
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `FN:${escapeVCardText(name)}`,
    `TEL;type=CELL;type=VOICE;waid=${digits}:+${digits}`,
    'END:VCARD',
  ].join('\n')
}
