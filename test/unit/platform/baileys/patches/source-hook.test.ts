/**
 * The shard's module (src/platform/baileys/module.ts) installs the source hook before it loads the adapter, so
 * every Baileys source patch applies to the Baileys a shard runs. Checked in a fresh process, as a shard loads it.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { messageIdPatch, messageIdSource } from '../../../../../src/platform/baileys/patches/message-id.js'
import { inFreshProcess } from '../../../../support/fresh-process.js'

describe('Baileys source hook', () => {
  it('is installed before the adapter loads Baileys, and every patch applies', () => {
    const r = inFreshProcess(`
const mod = await import('./src/platform/baileys/module.ts')
const { patchState } = await import('./src/platform/baileys/patches/source-hook.ts')
console.log(JSON.stringify({ factory: typeof mod.createBaileysLink, patches: patchState() }))
`)
    expect(r).toEqual({
      factory: 'function',
      patches: {
        'timeout helpers': 'patched',
        'message id': 'patched',
        'mutex: lib/Utils/auth-utils.js': 'patched',
        'mutex: lib/Utils/make-mutex.js': 'patched',
        'binary node encoder': 'patched',
        'wasm bridge: lib/Utils/crypto.js': 'patched',
        'wasm bridge: lib/Utils/chat-utils.js': 'patched',
        'wasm bridge: lib/Utils/lt-hash.js': 'patched',
      },
    })
  })

  it("the message-id patch makes Baileys' default id only when the caller gives none", () => {
    const source = readFileSync(fileURLToPath(messageIdPatch.url), 'utf8')
    const patched = messageIdSource(source)
    expect(patched).toContain('messageId: options?.messageId || generateMessageIDV2(sock.user?.id),')
    expect(patched?.length).toBe(source.length + 'options?.messageId || '.length)
    expect(messageIdSource(source.replace('...options\n', '...opts\n'))).toBeUndefined()
  })
})
