/**
 * Every link between the repository's documents leads somewhere: a relative link names a file that exists, and a
 * `#section` names a heading of that document (as GitHub makes its anchors). Pages moved or headings renamed
 * without their links following fail here, naming the link.
 */
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readRepoFile, repoRoot } from '../../support/readme.js'

const DOCUMENTS = [
  'README.md',
  'SECURITY.md',
  'BENCHMARKS.md',
  'test/README.md',
  'src/sandbox/README.md',
  'bench/peer/README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter(f => f.endsWith('.md'))
    .map(f => `docs/${f}`),
]

/** The text outside fenced blocks and inline code, where a link is a link. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-')

function anchorsOf(file: string): Set<string> {
  const headings = readRepoFile(file)
    .replace(/^```[\s\S]*?^```/gm, '')
    .split('\n')
    .flatMap(line => /^#{1,6} (.+)$/.exec(line)?.[1] ?? [])
  return new Set(headings.map(anchor))
}

describe('links between the documents', () => {
  it.each(DOCUMENTS.map(file => [file]))('%s: every relative link leads to a file and a heading', file => {
    const broken: string[] = []
    for (const [, target] of prose(readRepoFile(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue
      const [pathPart = '', section] = target!.split('#')
      const linked = pathPart ? path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart)) : file
      if (!existsSync(path.join(repoRoot, linked))) broken.push(`${target}: no file ${linked}`)
      else if (section && linked.endsWith('.md') && !anchorsOf(linked).has(section))
        broken.push(`${target}: ${linked} has no heading #${section}`)
    }
    expect(broken).toEqual([])
  })
})
