/**
 * @module sandbox/state-file
 * The sandbox's optional state file: the world, every account's simulated phone (Signal identity, prekeys, the
 * sessions and sender keys it holds) and paired companions, and the app-state keys. A sandbox started on a saved
 * file lets clients paired before log straight back in, so a bench can keep a paired fleet of thousands of sessions
 * instead of pairing them again (~0.5 s of CPU each). Live connections, inboxes and offline queues are not kept.
 * Noise and TLS keys are still made fresh: clients read them from GET /trust at every start.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { BufferJSON } from '@whiskeysockets/baileys'
import { SenderKeyRecord } from '@whiskeysockets/baileys/lib/Signal/Group/index.js'
import { SessionRecord } from 'libsignal'
import type { AccountRegistry, AccountState } from './accounts.js'
import type { AppStateKey, AppStateKeys } from './app-state.js'
import type { World } from './types.js'

const VERSION = 1

interface StateFile {
  version: number
  world: World
  nextLid: number
  accounts: AccountState[]
  appStateKeys: Array<[string, AppStateKey]>
}

export interface SandboxState {
  world: World
  accounts: AccountRegistry
  appState: AppStateKeys
}

/** Signal records go to the file as their own serialized forms, not as class instances. */
const recordsOut = (a: AccountState): AccountState => ({
  ...a,
  simPhone: {
    ...a.simPhone,
    sessions: a.simPhone.sessions.map(([id, r]) => [id, r.serialize() as unknown as SessionRecord]),
    senderKeys: a.simPhone.senderKeys.map(([id, r]) => [id, r.serialize() as unknown as SenderKeyRecord]),
  },
})

const recordsIn = (a: AccountState): AccountState => ({
  ...a,
  simPhone: {
    ...a.simPhone,
    sessions: a.simPhone.sessions.map(([id, r]) => [id, SessionRecord.deserialize(r as never)]),
    senderKeys: a.simPhone.senderKeys.map(([id, r]) => [id, new SenderKeyRecord(r as never)]),
  },
})

/** Writes the state atomically (a temp file renamed over the old one). */
export function saveSandboxState(file: string, state: SandboxState): void {
  const registry = state.accounts.toState()
  const body: StateFile = {
    version: VERSION,
    world: state.world,
    nextLid: registry.nextLid,
    accounts: registry.accounts.map(recordsOut),
    appStateKeys: state.appState.entries(),
  }
  writeFileSync(`${file}.tmp`, JSON.stringify(body, BufferJSON.replacer))
  renameSync(`${file}.tmp`, file)
}

/** Restores accounts and app-state keys from `file` and returns its world; undefined when there is no file yet. */
export function loadSandboxState(file: string, into: Omit<SandboxState, 'world'>): World | undefined {
  if (!existsSync(file)) return undefined
  const body = JSON.parse(readFileSync(file, 'utf8'), BufferJSON.reviver) as StateFile
  if (body.version !== VERSION) throw new Error(`${file}: sandbox state version ${body.version}, expected ${VERSION}`)
  into.accounts.restore({ nextLid: body.nextLid, accounts: body.accounts.map(recordsIn) })
  into.appState.restore(body.appStateKeys)
  return body.world
}
