/**
 * @module sandbox/quiet-libsignal
 * libsignal prints whole session records with console.info/warn whenever a session opens or closes (a normal event
 * when Baileys refreshes sessions after a LID mapping). In the sandbox's own process that drowns the logs, so the
 * CLI (and the sandbox tests) filter exactly those lines. Library users are not affected unless they opt in.
 */
const CHATTER = [
  'Closing session:',
  'Opening session:',
  'Closing open session in favor of incoming prekey bundle',
  'Decrypted message with closed session.',
  'Removing old closed session:',
  'Session already closed',
  'Session already open',
]

let installed = false

export function silenceLibsignalChatter(): void {
  if (installed) return
  installed = true
  for (const level of ['info', 'warn'] as const) {
    const original = console[level].bind(console)
    console[level] = (...args: unknown[]): void => {
      const first = args[0]
      if (typeof first === 'string' && CHATTER.some(prefix => first.startsWith(prefix))) return
      original(...args)
    }
  }
}
