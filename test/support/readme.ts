/**
 * Reads the README the way an operator does: its sections and fenced shell blocks, the Settings and Errors tables.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const readRepoFile = (name: string) => readFileSync(path.join(repoRoot, name), 'utf8')

/** The text of the `## <title>` section, up to the next `## `. */
export function readmeSection(title: string): string {
  const readme = readRepoFile('README.md')
  const start = readme.indexOf(`\n## ${title}\n`)
  if (start < 0) throw new Error(`README has no "## ${title}" section`)
  const end = readme.indexOf('\n## ', start + 1)
  return readme.slice(start, end < 0 ? undefined : end)
}

/** The setting names in the first column of the README's Settings table (`A` / `B` rows give both). */
export function readmeSettings(): string[] {
  const rows = readmeSection('Settings')
    .split('\n')
    .filter(l => l.startsWith('| `'))
  return rows.flatMap(row => [...row.split('|')[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map(m => m[1]!))
}

/** The settings each `### <part> (\`<file>\`)` table of the README's Settings section lists, by that file. */
export function readmeSettingGroups(): Map<string, string[]> {
  const groups = new Map<string, string[]>()
  let current: string[] | undefined
  for (const line of readmeSection('Settings').split('\n')) {
    const heading = /^### .*\(`([^`]+)`\)$/.exec(line)
    if (heading) groups.set(heading[1]!, (current = []))
    else if (line.startsWith('| `') && current)
      current.push(...[...line.split('|')[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map(m => m[1]!))
  }
  return groups
}

/**
 * Each setting's default as the README's Settings table writes it (`A` / `B` rows give one default each, and a unit
 * after the last applies to all: `16 / 64 MiB`). A default described in words (`cores, at least 2`) is left out.
 */
export function readmeSettingDefaults(): Map<string, string | number | boolean | undefined> {
  const defaults = new Map<string, string | number | boolean | undefined>()
  const rows = readmeSection('Settings')
    .split('\n')
    .filter(l => l.startsWith('| `'))
  for (const row of rows) {
    const [, nameCell = '', defaultCell = ''] = row.split('|').map(cell => cell.trim())
    const names = [...nameCell.matchAll(/`([A-Z0-9_]+)`/g)].map(m => m[1]!)
    const mib = / MiB$/.test(defaultCell) ? 1024 * 1024 : 1
    const parts = defaultCell.replace(/ MiB$/, '').split(' / ')
    names.forEach((name, i) => {
      const text = (parts.length === names.length ? parts[i]! : defaultCell).replace(/ \(.*\)$/, '').trim()
      if (/^\d+$/.test(text)) defaults.set(name, Number(text) * mib)
      else if (text === 'true' || text === 'false') defaults.set(name, text === 'true')
      else if (text === 'unset') defaults.set(name, undefined)
      else if (/^[\w./]+$/.test(text)) defaults.set(name, text)
    })
  }
  return defaults
}

/** The rows of the README's Errors table (`### Errors`, the last part of the API section): status and message. */
export function readmeErrors(): { status: number; message: string }[] {
  const api = readmeSection('API')
  const start = api.indexOf('\n### Errors\n')
  if (start < 0) throw new Error('README has no "### Errors" in its API section')
  return api
    .slice(start)
    .split('\n')
    .filter(l => /^\| \d{3} \|/.test(l))
    .map(row => {
      const [status = '', message = ''] = row
        .split('|')
        .slice(1, 3)
        .map(cell => cell.trim())
      const quoted = /^`([^`]+)`$/.exec(message)?.[1]
      return { status: Number(status), message: quoted ?? `(not one quoted message: ${message})` }
    })
}
