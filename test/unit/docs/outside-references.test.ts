/**
 * A clone has all it needs: no tracked file (document, comment, script or result file) points outside the
 * repository or to what a clone does not have. Not to a machine's own folders (a home, a work tree, a team folder
 * beside the repository), not to the team's private notes by name, and not to an issue number of a tracker a
 * clone cannot read: a comment says why, a document says what was measured and when. A line that does fails here,
 * named with its file and line.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/readme.js'

/** What points outside: each pattern with what it is. Written in pieces, so that this file does not match itself. */
const OUTSIDE: [RegExp, string][] = [
  [new RegExp(['\\.\\.', '/shared'].join('')), "the team's folder beside the repository"],
  [new RegExp(['/wo', 'rk/'].join('')), "a machine's work folder"],
  [new RegExp(['/ro', 'ot/|/ho', 'me/'].join('')), "a user's home folder"],
  [new RegExp(['\\b(SCALE-OUT|PEERS|STYLE|NOTES)\\.md\\b|\\bST', 'YLE caveat'].join('')), "the team's private notes"],
  [new RegExp(['\\bissues? ', '\\d+'].join(''), 'i'), "an issue number of the team's tracker"],
]

/** Every tracked file, as a clone has them; binary files and the lock file (registry data) left out. */
function trackedTextFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter(
      f => f && f !== 'package-lock.json' && !/\.(png|jpe?g|gif|webp|mp4|ogg|opus|pdf|gz|tgz|zip|wasm|mdb)$/i.test(f),
    )
}

describe('nothing tracked points outside the repository', () => {
  it('no path outside it, no private note, no issue number', () => {
    const files = trackedTextFiles()
    expect(files.length).toBeGreaterThan(300)
    const found: string[] = []
    for (const file of files) {
      let text: string
      try {
        text = readFileSync(path.join(repoRoot, file), 'utf8')
      } catch {
        continue // listed but gone from the work tree (deleted, not yet committed)
      }
      if (text.includes('\0')) continue
      text.split('\n').forEach((line, i) => {
        for (const [pattern, what] of OUTSIDE)
          if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 100)}`)
      })
    }
    expect(found).toEqual([])
  })
})
