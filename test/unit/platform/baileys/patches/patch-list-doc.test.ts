/**
 * The patch list a contributor reads (docs/contributing.md, "Patches to Baileys, libsignal and Node") is the patch
 * list (src/platform/baileys/patches/patch-list.ts), row for row: a patch added, removed, moved to another
 * version or re-measured without the list following fails here, and the message is the table to paste.
 */
import { describe, expect, it } from 'vitest'
import { PLATFORM_PATCHES } from '../../../../../src/platform/baileys/patches/patch-list.js'
import { docSection } from '../../../../support/readme.js'

const HEADER = ['| Patch | Package, version | Why | What it gained |', '| --- | --- | --- | --- |']

/** The table the inventory makes: one row per patch, in the inventory's order. */
const inventoryTable = () =>
  [...HEADER, ...PLATFORM_PATCHES.map(p => `| ${p.name} | ${p.target} ${p.writtenFor} | ${p.why} | ${p.gain} |`)].join(
    '\n',
  )

describe('docs/contributing.md: the patch list', () => {
  it('is the inventory, row for row', () => {
    const section = docSection('docs/contributing.md', 'Patches to Baileys, libsignal and Node')
    const table = section
      .split('\n')
      .filter(line => line.startsWith('| '))
      .join('\n')
    expect(table, `paste this table into the section:\n${inventoryTable()}\n`).toBe(inventoryTable())
    expect(PLATFORM_PATCHES.length).toBeGreaterThan(10)
  })
})
