/**
 * @module demo/start-failure
 * The one line the demo prints when the sandbox or the gateway did not start: the reason the child gave (the
 * gateway's own one-line refusal, or the error line of a crash without its stack), and where its whole log is.
 */

/** The line of `output` that says why: an error's first line, a refusal, else the last line written. */
function reasonIn(output: string): string | undefined {
  const lines = output
    .split('\n')
    .map(l => l.trim())
    .filter(l => l !== '')
  if (lines.some(l => l.includes('EADDRINUSE'))) return 'its port was taken by another program meanwhile'
  return (
    lines.find(l => /^(gateway cannot start:|invalid setting|\w*Error\b)/.test(l)) ??
    lines.filter(l => !l.startsWith('at ') && !l.startsWith('Node.js v')).at(-1)
  )
}

/** `name` (`sandbox`) did not start: `err` is what its launcher threw, `output` the end of what it wrote. */
export function startFailureLine(name: string, err: unknown, output: string, logFile: string): string {
  const message = err instanceof Error ? err.message : String(err)
  const reason = /^(timed out|gateway did not start)/.test(message)
    ? 'it did not answer within a minute'
    : reasonIn(output)
  return `demo: the ${name} did not start: ${reason ?? 'it stopped without a word'} (its log: ${logFile})`
}
