/**
 * Reads the README and the pages under docs/ the way a reader does: their sections, the Settings tables
 * (docs/operating.md, and cluster mode's own in docs/cluster.md) and the Errors table (docs/api.md).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const readRepoFile = (name: string) => readFileSync(path.join(repoRoot, name), 'utf8')

/** The text of the `## <title>` section of a document (a path from the repository's root), up to the next `## `. */
export function docSection(file: string, title: string): string {
  const text = readRepoFile(file)
  const start = text.indexOf(`\n## ${title}\n`)
  if (start < 0) throw new Error(`${file} has no "## ${title}" section`)
  const end = text.indexOf('\n## ', start + 1)
  return text.slice(start, end < 0 ? undefined : end)
}

/** The text of the README's `## <title>` section. */
export const readmeSection = (title: string) => docSection('README.md', title)

/** The pages whose `## Settings` sections together list every setting: the operator's, and cluster mode's own. */
export const SETTINGS_PAGES = ['docs/operating.md', 'docs/cluster.md'] as const

/** Every Settings section's lines, page after page. */
const settingsLines = () => SETTINGS_PAGES.flatMap(page => docSection(page, 'Settings').split('\n'))

/** The setting names in the first column of the Settings tables (`A` / `B` rows give both). */
export function documentedSettings(): string[] {
  const rows = settingsLines().filter(l => l.startsWith('| `'))
  return rows.flatMap(row => [...row.split('|')[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map(m => m[1]!))
}

/** The settings each `### <part> (\`<file>\`)` table of the Settings sections lists, by that file. */
export function documentedSettingGroups(): Map<string, string[]> {
  const groups = new Map<string, string[]>()
  let current: string[] | undefined
  for (const line of settingsLines()) {
    const heading = /^### .*\(`([^`]+)`\)$/.exec(line)
    if (heading) groups.set(heading[1]!, (current = []))
    else if (line.startsWith('| `') && current)
      current.push(...[...line.split('|')[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map(m => m[1]!))
  }
  return groups
}

/**
 * Each setting's default as the Settings tables write it (`A` / `B` rows give one default each, and a unit
 * after the last applies to all: `16 / 64 MiB`). A default described in words (`cores, at least 2`) is left out.
 */
export function documentedSettingDefaults(): Map<string, string | number | boolean | undefined> {
  const defaults = new Map<string, string | number | boolean | undefined>()
  const rows = settingsLines().filter(l => l.startsWith('| `'))
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

/** The page that holds the Errors table. */
export const ERRORS_PAGE = 'docs/api.md'

/** The rows of the Errors table (docs/api.md, `## Errors`): status and message. */
export function documentedErrors(): { status: number; message: string }[] {
  return docSection(ERRORS_PAGE, 'Errors')
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
