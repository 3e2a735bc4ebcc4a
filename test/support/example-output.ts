/**
 * Holds what a command printed to the line a document shows under it. A document shows one run's values; ids,
 * secrets, tokens and ETags differ in every run, so each one (a word of 16 or more letters, digits, `_` and `-`) is
 * an example: the first time it appears it stands for what the real output holds in its place, and from then on
 * the document's later commands get the real value wherever they name the example (`ID=<example>`,
 * `if-none-match: "<example>"`), and a later output must show that same real value. Everything else must match:
 *
 * - a JSON line: the same keys all the way down, the same value types, the same booleans and nulls;
 * - a line starting with a status code (`200 ..., or 304 ...`): the output is one of the codes the line names;
 * - any other line: word for word (a `name:` word in any case, as HTTP header names are).
 */
import { expect } from 'vitest'

const EXAMPLE = /^[A-Za-z0-9_-]{16,}$/

export class Examples {
  /** Each example value of the document → the real value that stood in its place. */
  readonly real = new Map<string, string>()

  /** The command with every example it names replaced by its real value. */
  substitute(text: string): string {
    let out = text
    for (const [example, value] of this.real) out = out.replaceAll(example, value)
    return out
  }

  /** Checks `printed` (a command's output, its last non-empty line) against the document's `expected` line. */
  check(expected: string, printed: string, where: string): void {
    const actual =
      printed
        .trim()
        .split('\n')
        .filter(l => l.trim())
        .at(-1) ?? ''
    if (/^[{[]/.test(expected)) {
      let parsed: unknown
      expect(() => (parsed = JSON.parse(actual)), `${where}: prints JSON, not ${actual}`).not.toThrow()
      this.same(JSON.parse(expected), parsed, where)
    } else if (/^\d{3}\b/.test(expected)) {
      const codes = expected.match(/\b\d{3}\b/g)!
      expect(codes, `${where}: status`).toContain(actual.trim())
    } else {
      const want = expected.split(/\s+/)
      const got = actual.trim().split(/\s+/)
      expect(got.length, `${where}: ${actual}`).toBe(want.length)
      for (const [i, word] of want.entries()) this.sameWord(word, got[i]!, where)
    }
  }

  private sameWord(want: string, got: string, where: string): void {
    const bare = (w: string) => w.replace(/^"(.*)"$/, '$1')
    if (EXAMPLE.test(bare(want))) this.sameExample(bare(want), bare(got), where)
    else if (want.endsWith(':')) expect(got.toLowerCase(), where).toBe(want.toLowerCase())
    else expect(got, where).toBe(want)
  }

  private sameExample(example: string, value: string, where: string): void {
    const known = this.real.get(example)
    if (known !== undefined) expect(value, `${where}: the value ${example} stood for before`).toBe(known)
    else this.real.set(example, value)
  }

  private same(want: unknown, got: unknown, where: string): void {
    if (Array.isArray(want)) {
      expect(Array.isArray(got), `${where}: an array`).toBe(true)
      if (want.length > 0) expect((got as unknown[]).length, `${where}: not empty`).toBeGreaterThan(0)
      // every element has the shape of the document's first one
      for (const [i, element] of (got as unknown[]).entries()) this.same(want[0], element, `${where}[${i}]`)
    } else if (want !== null && typeof want === 'object') {
      expect(got !== null && typeof got === 'object' && !Array.isArray(got), `${where}: an object`).toBe(true)
      expect(Object.keys(got as object).sort(), `${where}: keys`).toEqual(Object.keys(want).sort())
      for (const [key, value] of Object.entries(want))
        this.same(value, (got as Record<string, unknown>)[key], `${where}.${key}`)
    } else if (typeof want === 'string' && EXAMPLE.test(want)) {
      expect(typeof got, where).toBe('string')
      this.sameExample(want, got as string, where)
    } else if (typeof want === 'boolean' || want === null) {
      expect(got, where).toBe(want)
    } else {
      expect(typeof got, where).toBe(typeof want)
    }
  }
}
