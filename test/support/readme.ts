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
