/**
 * The typed client cannot drift from the document: the committed src/client/openapi.json and src/client/schema.ts
 * must equal what `npm run client:generate` produces now from the zod schemas.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { clientFiles } from '../../../scripts/generate-client/files.js'

const root = path.resolve(import.meta.dirname, '../../..')

describe('the generated client', () => {
  it('is up to date with the OpenAPI document (else run npm run client:generate)', async () => {
    const fresh = await clientFiles()
    expect(Object.keys(fresh).sort()).toEqual(['src/client/openapi.json', 'src/client/schema.ts'])
    for (const [file, content] of Object.entries(fresh)) {
      expect(readFileSync(path.join(root, file), 'utf8'), `${file} is stale: run npm run client:generate`).toBe(content)
    }
  }, 60_000)

  it('types every operation of the document', async () => {
    const schema = (await clientFiles())['src/client/schema.ts']!
    for (const id of [
      'createSession',
      'getSession',
      'sendMessage',
      'postStatus',
      'sendTyping',
      'listGroupMembers',
      'getGroup',
      'listChannelMessages',
      'resetSession',
      'deleteSession',
    ]) {
      expect(schema).toContain(`    ${id}: {`)
    }
  }, 60_000)
})
