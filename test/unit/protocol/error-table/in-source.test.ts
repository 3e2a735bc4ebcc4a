/**
 * Every client-facing message lives in src/protocol/error-table.ts (and the validation lines in
 * src/http/schemas/validation-lines.ts): a fixed message written out anywhere else in src/ would drift from the
 * table (and from docs/api.md's Errors table, tied to it) the first time someone rewords one of the two. The
 * sandbox plays the platform, not the gateway, so its own words don't count.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ERRORS } from '../../../../src/protocol/errors.js'
import { LINE } from '../../../../src/http/schemas/validation-lines.js'

const SRC = fileURLToPath(new URL('../../../../src', import.meta.url))
const CATALOGUE = [
  path.join(SRC, 'protocol', 'error-table.ts'),
  path.join(SRC, 'http', 'schemas', 'validation-lines.ts'),
]
const SANDBOX = path.join(SRC, 'sandbox')
/** Generated from the OpenAPI document, which takes its examples from the error table. */
const GENERATED_CLIENT = path.join(SRC, 'client', 'schema.ts')
/** Comments may quote a message to say when it is answered; only code counts. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return full === SANDBOX ? [] : sourceFiles(full)
    return entry.name.endsWith('.ts') && !CATALOGUE.includes(full) && full !== GENERATED_CLIENT ? [full] : []
  })

describe('the error table', () => {
  it('is the only place in src/ that spells out a fixed client message', () => {
    const fixed = Object.values(ERRORS)
      .map(entry => entry.message as string)
      .filter(message => !message.includes('<'))
    const messages = [...fixed, ...Object.values(LINE)]
    const files = sourceFiles(SRC)
    expect(files.length).toBeGreaterThan(100)
    const copies = files.flatMap(file => {
      const text = withoutComments(readFileSync(file, 'utf8'))
      return messages
        .filter(m => [`'${m}'`, `"${m}"`, `\`${m}\``].some(q => text.includes(q)))
        .map(m => `${path.relative(SRC, file)}: ${m}`)
    })
    expect(copies).toEqual([])
  })
})
