/**
 * The fenced code blocks of the README and the pages under docs/, read the way a reader copies them: each block's
 * language and text, whether it is marked as one no test can run (`<!-- not run: why -->` on the line before its
 * fence: production, docker, the whole suite), and a shell block's commands each with the output its `# ` line
 * after it shows. test/unit/docs/code-blocks.test.ts holds every block to these rules, and
 * test/system/docs/shell-examples.test.ts runs every block that is not marked.
 */
import { readRepoFile } from './readme.js'

/** The documents whose blocks a reader can run: the front door and the pages by reader. */
export const RUNNABLE_DOCS = [
  'README.md',
  'docs/api.md',
  'docs/operating.md',
  'docs/cluster.md',
  'docs/sandbox.md',
  'docs/contributing.md',
] as const

/** Benchmark documents: no test runs a benchmark, so each of their blocks must say so. */
export const RECORD_DOCS = ['BENCHMARKS.md', 'docs/benchmarks-log.md', 'bench/peer/README.md'] as const

export interface CodeBlock {
  file: string
  /** 1-based line of the opening fence. */
  line: number
  /** The fence's language (`sh`, `ts`, `http`, `json`, `mermaid`, `text`), `''` when it names none. */
  lang: string
  code: string
  /** Why no test runs it, from `<!-- not run: why -->` on the line before the fence. */
  notRun?: string
}

const NOT_RUN = /^<!-- not run: (.+) -->$/

export function codeBlocks(file: string): CodeBlock[] {
  const lines = readRepoFile(file).split('\n')
  const blocks: CodeBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)/.exec(lines[i]!)
    if (!open) continue
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'))
    if (end < 0) throw new Error(`${file}:${i + 1}: a fence that never closes`)
    blocks.push({
      file,
      line: i + 1,
      lang: open[1]!,
      code: lines.slice(i + 1, end).join('\n'),
      notRun: NOT_RUN.exec(lines[i - 1] ?? '')?.[1],
    })
    i = end
  }
  return blocks
}

export interface ShellStep {
  /** The command as a reader pastes it (continuation lines joined by the shell). */
  command: string
  /** What its `# ` line right after it shows it prints, if it shows anything. */
  expected?: string
}

/** A shell block's commands, each with the output line shown under it; other comment lines are prose. */
export function shellSteps(code: string): ShellStep[] {
  const steps: ShellStep[] = []
  const lines = code.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '' || line.startsWith('#')) continue
    let command = line
    while (command.endsWith('\\') && i + 1 < lines.length) command = `${command}\n${lines[++i]}`
    const next = lines[i + 1]
    const expected = next?.startsWith('# ') && looksLikeOutput(next.slice(2)) ? next.slice(2) : undefined
    if (expected !== undefined) i++
    steps.push({ command, expected })
  }
  return steps
}

/** An output line: JSON, a status code, or `name: value` / `word: ...` as a program prints it. */
function looksLikeOutput(text: string): boolean {
  return /^[{[]/.test(text) || /^\d{3}\b/.test(text) || /^[\w-]+: \S/.test(text)
}
