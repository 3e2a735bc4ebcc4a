/**
 * File modes (src/storage/file-modes.ts): DATA_DIR is 0700, an existing looser one is tightened, its files 0600.
 */
import fs from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { storeHarness } from '../../support/store-harness.js'
import { fillSession as fill } from '../../support/store-secrets.js'

const { tempDir, openStore, closeAll } = storeHarness('file-modes-')
const KEY = randomBytes(32).toString('base64')
const keyFile = (dir: string, id: string) => path.join(dir, 'session-keys', Buffer.from(id).toString('hex'))

describe('file modes', () => {
  it('DATA_DIR is 0700 (an existing 0755 one is tightened), its files 0600', async () => {
    const parent = tempDir()
    const fresh = path.join(parent, 'new', 'data')
    await fill(openStore(fresh, KEY), 'm')
    const existing = path.join(parent, 'old')
    fs.mkdirSync(existing, { mode: 0o755 })
    fs.chmodSync(existing, 0o755)
    openStore(existing)
    await closeAll()
    const mode = (p: string) => fs.statSync(p).mode & 0o777
    expect(mode(fresh)).toBe(0o700)
    expect(mode(existing)).toBe(0o700)
    expect(mode(path.join(fresh, 'session-keys'))).toBe(0o700)
    for (const file of ['gateway.mdb', 'gateway.mdb-lock']) {
      expect(mode(path.join(fresh, file))).toBe(0o600)
      expect(mode(path.join(existing, file))).toBe(0o600)
    }
    expect(mode(keyFile(fresh, 'm'))).toBe(0o600)
  })
})
