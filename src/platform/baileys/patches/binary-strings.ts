/**
 * @module platform/baileys/patches/binary-strings
 * What Baileys' binary node encoder decides about a string before it writes it (`WABinary/encode.js`, mirrored by
 * `binary-encoder.ts`): whether it is a token of the dictionary, and whether it packs into nibbles or hex digits.
 * Pure functions of the string and of Baileys' token map, apart from the lookup built once per map.
 */

export interface Token {
  dict?: number
  index: number
}

/**
 * `TOKEN_MAP[str]`, as Baileys reads it, from a Map: reading a plain object with a string made at run time (an id, a
 * jid's user part) took V8 ~130-600 ns for a string that is not a token (its runtime lookup), a Map ~40. A string
 * that is not an own key is looked up in the object as before when it names a property of its prototypes
 * (`constructor`, `toString`...), which Baileys' lookup finds too. Baileys builds its map once, as it loads.
 */
export interface TokenLookup {
  map: Record<string, Token>
  own: Map<string, Token>
  inherited: Set<string>
}
const lookups = new WeakMap<object, TokenLookup>()

export function tokenLookup(map: Record<string, Token>): TokenLookup {
  let lookup = lookups.get(map)
  if (lookup) return lookup
  const inherited = new Set<string>()
  for (let proto = Object.getPrototypeOf(map); proto !== null; proto = Object.getPrototypeOf(proto))
    for (const name of Object.getOwnPropertyNames(proto)) inherited.add(name)
  lookup = { map, own: new Map(Object.entries(map)), inherited }
  lookups.set(map, lookup)
  return lookup
}

export const NIBBLE = 1
export const HEX = 2

/** NIBBLE when every character is a digit, `-` or `.`; else HEX when each is a digit or `A`-`F`; else 0. */
export function packedKind(str: string): number {
  let kinds = NIBBLE | HEX
  for (let i = 0; i < str.length && kinds !== 0; i++) {
    const c = str.charCodeAt(i)
    if (c >= 48 && c <= 57) continue
    if (c !== 45 && c !== 46) kinds &= ~NIBBLE
    if (c < 65 || c > 70) kinds &= ~HEX
  }
  return kinds & NIBBLE ? NIBBLE : kinds
}

/** A character's 4 bits: digits, then `-` 10 and `.` 11 (nibble) or `A`-`F` 10-15 (hex); the final pad is 15. */
export function nibbleOf(c: number, kind: number): number {
  if (c <= 57 && c >= 48) return c - 48
  if (kind === HEX) return c - 55
  return c === 45 ? 10 : 11
}
