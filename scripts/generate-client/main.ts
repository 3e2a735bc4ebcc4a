/**
 * `npm run client:generate`: writes the OpenAPI document and the typed client's schema.ts from the zod schemas.
 * Run it after changing a route, a request schema or a response schema, and commit the result.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { clientFiles } from './files.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
for (const [file, content] of Object.entries(await clientFiles())) {
  writeFileSync(path.join(root, file), content)
  console.log(`wrote ${file}`)
}
