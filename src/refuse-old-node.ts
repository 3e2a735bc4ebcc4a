/**
 * @module refuse-old-node
 * Imported first by src/main.ts, so that it runs before any other module of the gateway: on a Node older than
 * package.json's engines the process stops here, exit 1, with one line on stderr (node-version.ts).
 */
import { enginesNode, unsupportedNodeLine } from './node-version.js'

const refusal = unsupportedNodeLine(process.versions.node, enginesNode())
if (refusal) {
  process.stderr.write(`${refusal}\n`)
  process.exit(1)
}
