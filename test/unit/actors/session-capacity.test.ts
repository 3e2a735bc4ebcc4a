/**
 * MAX_SESSIONS unset is what the machine holds (src/actors/session-capacity.ts): the lower of its memory's figure
 * (1 MB a session, half of what is left after the process's 512 MB) and its open-file limit's (2 descriptors a
 * session, 1,024 kept), rounded down to hundreds; an explicit MAX_SESSIONS wins, 0 included.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  describeCapacity,
  machineSessionCapacity,
  openFilesLimit,
  sessionCapacity,
} from '../../../src/actors/session-capacity.js'
import { loadSettings } from '../../../src/gateway-settings.js'

const GiB = 2 ** 30

describe('sessionCapacity', () => {
  it('is bound by the open-file limit on a machine with much memory and a low ulimit -n', () => {
    const c = sessionCapacity({ memoryBytes: 24 * GiB, openFiles: 20_000 })
    expect(c).toEqual({
      sessions: 9_400,
      bound: 'open files',
      byMemory: 12_032,
      byFiles: 9_488,
      memoryMb: 24_576,
      openFiles: 20_000,
    })
  })

  it('is bound by memory once the open-file limit is raised, and grows with the memory', () => {
    expect(sessionCapacity({ memoryBytes: 24 * GiB, openFiles: 1_048_576 })).toMatchObject({
      sessions: 12_000,
      bound: 'memory',
    })
    expect(sessionCapacity({ memoryBytes: 4 * GiB, openFiles: 1_048_576 }).sessions).toBe(1_700)
    expect(sessionCapacity({ memoryBytes: 64 * GiB, openFiles: 1_048_576 }).sessions).toBe(32_500)
  })

  it('leaves the open-file limit out where it cannot be read, and never says less than one session', () => {
    expect(sessionCapacity({ memoryBytes: 8 * GiB, openFiles: undefined })).toMatchObject({
      sessions: 3_800,
      bound: 'memory',
      byFiles: undefined,
    })
    expect(sessionCapacity({ memoryBytes: 256 * 2 ** 20, openFiles: 1_024 }).sessions).toBe(1)
    expect(sessionCapacity({ memoryBytes: 8 * GiB, openFiles: 1_100 }).sessions).toBe(38)
  })

  it('says the figure, both limits and which one bound it', () => {
    expect(describeCapacity(sessionCapacity({ memoryBytes: 24 * GiB, openFiles: 20_000 }))).toBe(
      'MAX_SESSIONS 9400 from this machine, bound by its open files: memory 24576 MB allows 12032 (1 MB a session, ' +
        '50% of what is left after 512 MB), open-file limit 20000 allows 9488 (2 a session, 1024 kept); ' +
        'set MAX_SESSIONS to choose another figure',
    )
  })
})

describe('openFilesLimit', () => {
  it('reads the soft limit of a /proc limits file, and nothing from one it cannot read', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'limits-'))
    const file = path.join(dir, 'limits')
    writeFileSync(
      file,
      'Limit                     Soft Limit           Hard Limit           Units\n' +
        'Max processes             95000                95000                processes\n' +
        'Max open files            20000                40000                files\n',
    )
    expect(openFilesLimit(file)).toBe(20_000)
    writeFileSync(file, 'Max open files            unlimited            unlimited            files\n')
    expect(openFilesLimit(file)).toBeUndefined()
    expect(openFilesLimit(path.join(dir, 'missing'))).toBeUndefined()
  })
})

describe('MAX_SESSIONS', () => {
  it("defaults to this machine's figure; an explicit value wins, 0 (no cap) included", () => {
    expect(loadSettings({}).MAX_SESSIONS).toBe(machineSessionCapacity().sessions)
    expect(machineSessionCapacity().sessions).toBeGreaterThan(0)
    expect(loadSettings({ MAX_SESSIONS: '2500' }).MAX_SESSIONS).toBe(2_500)
    expect(loadSettings({ MAX_SESSIONS: '0' }).MAX_SESSIONS).toBe(0)
  })
})
