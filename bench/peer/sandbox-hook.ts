/**
 * Points the peer gateway (fazer-ai/baileys-api, set up by setup-peer.sh) at our platform sandbox, as our own
 * gateway's SANDBOX_URL does: when the peer runs with SANDBOX_URL, each of its Baileys sockets reads the sandbox's
 * GET /trust once (socket URL, root public key, media CA), trusts that root, and skips the fetch of the platform's
 * web version. Without SANDBOX_URL the peer runs as published. Four edits of one file, each found by a line of the
 * peer's source it follows or replaces; a line not found (another commit of the peer) stops with its name.
 *
 *   npx tsx bench/peer/sandbox-hook.ts <peer dir>
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

interface Edit {
  what: string
  /** The peer's own text the edit is anchored on. */
  find: string
  /** What takes its place (the anchor kept where the edit adds to it). */
  replace: string
}

const TRUST = `
// Side-by-side bench: SANDBOX_URL points every socket at our platform sandbox (its GET /trust).
let sandboxTrust: Promise<{ wsUrl: string; rootPublicKey: string; caCert: string }> | undefined;
const getSandboxTrust = (url: string) =>
  (sandboxTrust ??= fetch(\`\${url}/trust\`).then((r) => r.json()).then((t) => {
    WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(t.rootPublicKey, "base64");
    return t;
  }));
`

const EDITS: Edit[] = [
  {
    what: "Baileys' certificate details imported",
    find: '  type WAPresence,\n} from "@whiskeysockets/baileys";',
    replace: '  type WAPresence,\n  WA_CERT_DETAILS,\n} from "@whiskeysockets/baileys";',
  },
  {
    what: 'the sandbox trust, read once',
    find: 'const REACHOUT_TIMELOCK_REFETCH_WINDOW_MS = 60_000;\n',
    replace: `const REACHOUT_TIMELOCK_REFETCH_WINDOW_MS = 60_000;\n${TRUST}`,
  },
  {
    what: "no fetch of the platform's web version with the sandbox",
    find: '    const version = await fetchBaileysClientVersion().catch(',
    replace:
      '    const sandbox = process.env.SANDBOX_URL ? await getSandboxTrust(process.env.SANDBOX_URL) : undefined;\n' +
      '    const version = sandbox ? undefined : await fetchBaileysClientVersion().catch(',
  },
  {
    what: "the socket's URL and CA from the sandbox",
    find: '      shouldIgnoreJid,\n      version,\n',
    replace:
      '      shouldIgnoreJid,\n      ...(version ? { version } : {}),\n' +
      '      ...(sandbox ? { waWebSocketUrl: sandbox.wsUrl, options: { tls: { ca: sandbox.caCert } } as RequestInit } : {}),\n',
  },
]

const peerDir = process.argv[2]
if (!peerDir) {
  console.error('usage: npx tsx bench/peer/sandbox-hook.ts <peer dir>')
  process.exit(2)
}
const file = path.join(peerDir, 'src/baileys/connection.ts')
let source = readFileSync(file, 'utf8')
if (source.includes('getSandboxTrust')) {
  console.log(`${file}: already points at the sandbox`)
  process.exit(0)
}
for (const edit of EDITS) {
  if (!source.includes(edit.find)) {
    console.error(`${file}: cannot apply "${edit.what}": the peer's source has changed (another commit?)`)
    process.exit(1)
  }
  source = source.replace(edit.find, edit.replace)
}
writeFileSync(file, source)
console.log(`${file}: points at the sandbox when SANDBOX_URL is set`)
