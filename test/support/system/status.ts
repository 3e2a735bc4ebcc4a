/**
 * Helpers for the POST /status end-to-end tests: posting once the address book has arrived, and reading which
 * simulated phones did (and did not) receive a given status.
 */
import type { components } from '../../../src/client/index.js'
import { inbox, reply, sandboxCall, withSession, type Gateway, type Session } from './harness.js'
import { waitFor } from '../wait-for.js'

export const NOT_SYNCED = 'contacts not synced, reconnect the session or set status privacy to "only share with"'
export const ONLY_SHARE_EMPTY = 'status privacy "only share with" has no contacts'

/**
 * Contacts arrive through app-state sync a moment after the connection opens; until then the gateway rightly answers
 * NOT_SYNCED. A user would retry, so does this (any other answer is returned as is).
 */
export async function postStatusWhenSynced(gw: Gateway, session: Session, body: components['schemas']['PostStatus']) {
  return waitFor(
    'a status accepted once contacts are synced',
    async () => {
      const r = await reply(gw.api.POST('/status', withSession(session, { body })))
      return r.status === 500 && r.body.message === NOT_SYNCED ? undefined : r
    },
    60_000,
  )
}

/** The status record with `id` in `phone`'s inbox, or undefined. */
export async function statusIn(sandboxUrl: string, phone: string, id: string) {
  return (await inbox(sandboxUrl, phone)).find(m => m.id === id && m.chat === 'status@broadcast')
}

/** Waits until every phone in `phones` holds the status; returns the records by phone. */
export async function waitForStatus(sandboxUrl: string, phones: string[], id: string, timeoutMs = 60_000) {
  const found = new Map<string, any>()
  await waitFor(
    `status ${id} at ${phones.length} phones`,
    async () => {
      for (const phone of phones) {
        if (found.has(phone)) continue
        const record = await statusIn(sandboxUrl, phone, id)
        if (record) found.set(phone, record)
      }
      return found.size === phones.length ? true : undefined
    },
    timeoutMs,
  )
  return found
}

/** Phones among `phones` that hold the status `id`. */
export async function holders(sandboxUrl: string, phones: string[], id: string): Promise<string[]> {
  const out: string[] = []
  for (const phone of phones) if (await statusIn(sandboxUrl, phone, id)) out.push(phone)
  return out
}

/** Sets the account's status privacy in the sandbox world; `addressing: 'lid'` lists members by LID JID. */
export async function setStatusPrivacy(
  sandboxUrl: string,
  phone: string,
  setting: string,
  list: string[] = [],
  addressing: 'pn' | 'lid' = 'pn',
) {
  const r = await sandboxCall(sandboxUrl, 'POST', '/world', {
    accounts: [{ phone, statusPrivacy: { setting, list, addressing } }],
  })
  if (r.status !== 200) throw new Error(`POST /world → ${r.status} ${JSON.stringify(r.body)}`)
}

export async function uploads(sandboxUrl: string): Promise<number> {
  const r = await sandboxCall(sandboxUrl, 'GET', '/stats')
  if (r.status !== 200) throw new Error(`GET /stats → ${r.status}`)
  return r.body.uploads ?? 0
}
