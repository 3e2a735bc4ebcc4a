/**
 * The licence: LICENSE is the GPL 3's full text, package.json says GPL-3.0-or-later, the image carries LICENSE, and
 * every production dependency installed here (what the image bundles) is under a licence the GPL 3 can take in and
 * that docs/operating.md's "Licences" section names. A new dependency under an incompatible licence fails here.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { docSection, readRepoFile, repoRoot } from '../../support/readme.js'

/** Licences a GPL-3.0-or-later program may include (FSF's list of GPL-compatible licences), as npm spells them. */
const GPL3_COMPATIBLE = new Set([
  'MIT',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'Zlib',
  'CC0-1.0',
  'LGPL-2.1',
  'LGPL-2.1-or-later',
  'LGPL-3.0',
  'LGPL-3.0-or-later',
  'GPL-3.0',
  'GPL-3.0-only',
  'GPL-3.0-or-later',
  'GPLv3',
  'MPL-2.0',
])

/** The licences of an SPDX expression: `(MIT OR CC0-1.0)` may be taken as either, `A AND B` needs both. */
function acceptable(expression: string): boolean {
  const inner = expression.replace(/^\((.*)\)$/, '$1')
  if (inner.includes(' OR ')) return inner.split(' OR ').some(acceptable)
  return inner.split(' AND ').every(l => GPL3_COMPATIBLE.has(l.trim()))
}

interface LockEntry {
  license?: string
  dev?: boolean
  link?: boolean
  version?: string
}

/** Production packages of the lockfile that npm installed on this machine (the image's platform: Linux x64). */
function installedProductionPackages(): { name: string; license: string }[] {
  const lock = JSON.parse(readRepoFile('package-lock.json')) as { packages: Record<string, LockEntry> }
  return Object.entries(lock.packages)
    .filter(
      ([key, entry]) => key !== '' && !entry.dev && !entry.link && existsSync(path.join(repoRoot, key, 'package.json')),
    )
    .map(([key, entry]) => ({ name: key.replace(/^.*node_modules\//, ''), license: entry.license ?? '(none)' }))
}

describe('licence', () => {
  it('LICENSE is the full GNU GPL version 3 and package.json says GPL-3.0-or-later', () => {
    const text = readRepoFile('LICENSE')
    expect(text.split('\n')[0]!.trim()).toBe('GNU GENERAL PUBLIC LICENSE')
    expect(text).toContain('Version 3, 29 June 2007')
    expect(text).toContain('END OF TERMS AND CONDITIONS')
    expect(text).toContain('How to Apply These Terms to Your New Programs')
    expect(JSON.parse(readRepoFile('package.json')).license).toBe('GPL-3.0-or-later')
  })

  it('the image carries LICENSE beside the compiled gateway', () => {
    expect(readRepoFile('Dockerfile')).toMatch(/^COPY LICENSE \.\/$/m)
    expect(readRepoFile('.dockerignore')).not.toMatch(/^LICENSE$/m)
  })

  it('every production dependency is GPL-3.0-compatible and named in docs/operating.md', () => {
    const packages = installedProductionPackages()
    expect(packages.map(p => p.name)).toContain('libsignal')
    const incompatible = packages.filter(p => !acceptable(p.license))
    expect(incompatible, 'production dependencies under a licence the GPL 3 cannot take in').toEqual([])
    const section = docSection('docs/operating.md', 'Licences')
    const licences = new Set(packages.map(p => (p.license === 'GPLv3' ? 'GPL-3.0' : p.license)))
    for (const licence of licences) expect(section, `docs/operating.md "Licences" names ${licence}`).toContain(licence)
  })
})
