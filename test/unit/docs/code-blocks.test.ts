/**
 * Every code block of the README and the pages under docs/ is one a test runs, or says why none can: a shell or
 * TypeScript block is run as written by test/system/docs/shell-examples.test.ts unless `<!-- not run: why -->`
 * stands on the line before it (production, docker, the whole suite); an HTTP request with its JSON answer is
 * replayed by test/system/docs/api-examples.test.ts, which reads only docs/api.md's "Endpoints, with examples"; the
 * benchmark records' commands are all marked (no test runs a benchmark). A block without a language, a placeholder
 * a shell cannot run (`<id>`, `HOST:PORT`), or an HTTP example where no test replays it fails here.
 */
import { describe, expect, it } from 'vitest'
import { codeBlocks, RECORD_DOCS, RUNNABLE_DOCS } from '../../support/doc-blocks.js'
import { docSection, readRepoFile } from '../../support/readme.js'

const LANGUAGES = ['sh', 'ts', 'http', 'json', 'mermaid', 'text']
const where = (b: { file: string; line: number }) => `${b.file}:${b.line}`

describe('the code blocks of the README and docs/', () => {
  const blocks = RUNNABLE_DOCS.flatMap(file => codeBlocks(file))

  it('each names its language', () => {
    expect(blocks.length).toBeGreaterThan(50)
    expect(blocks.filter(b => !LANGUAGES.includes(b.lang)).map(where)).toEqual([])
  })

  it('each shell or TypeScript block runs as written, or says why it cannot', () => {
    const runnable = blocks.filter(b => (b.lang === 'sh' || b.lang === 'ts') && !b.notRun)
    expect(runnable.length).toBeGreaterThan(8)
    // what a reader fills in by hand cannot run: the examples use the demo's addresses and $ID, $SID
    expect(runnable.filter(b => /<[a-z][\w-]*>|HOST:PORT/.test(b.code)).map(where)).toEqual([])
  })

  it('each HTTP example stands where it is replayed, followed by its answer', () => {
    const replayed = docSection('docs/api.md', 'Endpoints, with examples')
    const http = blocks.filter(b => b.lang === 'http')
    expect(http.length).toBeGreaterThan(20)
    for (const block of http) {
      expect(block.file, where(block)).toBe('docs/api.md')
      expect(replayed, where(block)).toContain(`\`\`\`http\n${block.code}\n\`\`\`\n\`\`\`json\n`)
    }
    expect(blocks.filter(b => b.lang === 'json').length).toBe(http.length)
  })

  it("the benchmark records' commands are all marked as not run by a test", () => {
    const records = RECORD_DOCS.flatMap(file => codeBlocks(file))
    expect(records.filter(b => b.lang !== 'text' && !b.notRun).map(where)).toEqual([])
  })

  it('a mark names its reason', () => {
    const marked = blocks.filter(b => b.notRun)
    expect(marked.length).toBeGreaterThan(0)
    for (const block of marked) expect(block.notRun!.length, where(block)).toBeGreaterThan(10)
    expect(readRepoFile('README.md')).toContain('<!-- not run: ')
  })
})
