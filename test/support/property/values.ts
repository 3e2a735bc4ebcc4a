/**
 * @module test/support/property/values
 * The values every generator of ./ draws from: header text as the wire carries it, and body text, scalars and JSON.
 */
import fc from 'fast-check'

/** Characters a header value may carry on the wire (no controls); unicode goes out as UTF-8 bytes (obs-text). */
export const headerText = (maxLength: number) =>
  fc
    .string({
      unit: fc.oneof(
        fc.constantFrom(...' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      ),
      maxLength,
    })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it strips
    .map(s => s.replace(/[\u0000-\u001f\u007f]/g, ''))

/** Text for bodies: any code point, sometimes long. */
export const anyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 200, maxLength: 3_000 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u0000', '😀', '\u202e', 'null', '__proto__', 'constructor') },
)

export const anyScalar = fc.oneof(anyText, fc.double(), fc.integer(), fc.boolean(), fc.constant(null))
export const anyJson = fc.jsonValue({ maxDepth: 3 })
