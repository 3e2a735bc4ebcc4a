/**
 * @module test/support/import-graph
 * The project's import graph, read from the source text (TypeScript 7 has no compiler API to ask): every
 * relative `import … from`, `export … from`, side-effect `import '…'` and `import('…')`, type-only ones included,
 * resolved to the file it names; its cycles, as the strongly connected components of that graph (Tarjan); and the
 * imports that leave a folder.
 */
import fs from 'node:fs'
import path from 'node:path'

const SOURCE = /\.(ts|mts)$/
const IMPORT =
  /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

function sourceFiles(dir: string, into: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') sourceFiles(file, into)
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) into.push(file)
  }
  return into
}

/** File → the project files it imports, for every source file under `dirs`. */
export function importGraph(dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap(dir => sourceFiles(path.resolve(dir)))
  const known = new Set(files)
  const resolve = (from: string, specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return undefined
    const base = path.resolve(path.dirname(from), specifier)
    const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, path.join(base, 'index.ts')]
    return candidates.find(candidate => known.has(candidate))
  }
  const graph = new Map<string, string[]>()
  for (const file of files) {
    // comments hold examples that look like imports
    const code = fs
      .readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    const imports = [...code.matchAll(IMPORT)].map(m => resolve(file, (m[1] ?? m[2] ?? m[3]) as string))
    graph.set(
      file,
      imports.filter((target): target is string => target !== undefined),
    )
  }
  return graph
}

/** The cycles of `graph`: each a set of files that import one another, directly or around a loop. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (file: string): void => {
    order.set(file, next)
    low.set(file, next++)
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!))
    }
    if (low.get(file) !== order.get(file)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort())
  }
  for (const file of graph.keys()) if (!order.has(file)) visit(file)
  return cycles
}

/** Every import from a file under `dir` to a file outside it, as `from → to` relative to `root`. */
export function importsLeaving(graph: Map<string, string[]>, dir: string, root: string): string[] {
  const inside = (file: string) => file.startsWith(`${dir}${path.sep}`)
  return [...graph]
    .filter(([file]) => inside(file))
    .flatMap(([file, targets]) =>
      targets
        .filter(target => !inside(target))
        .map(target => `${path.relative(root, file)} → ${path.relative(root, target)}`),
    )
}
