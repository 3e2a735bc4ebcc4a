/**
 * @module test/support/fakes/baileys-link-harness
 * The Baileys link (src/platform/baileys/baileys-link.ts) over a fake socket (./fake-socket.ts) instead of the real
 * one: the unit tests of the link's parts (test/unit/platform/baileys/link/) drive the socket's events by hand and
 * read what the link reported and stored. Importing this module replaces Baileys' socket factory for the importing
 * test file; every other Baileys export stays real.
 */
import type { initAuthCreds } from '@whiskeysockets/baileys'
import { rm, mkdtemp } from 'node:fs/promises'
import type http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import pino from 'pino'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, vi } from 'vitest'
import { loadSettings } from '../../../src/gateway-settings.js'
import type { GatewayError } from '../../../src/protocol/errors.js'
import type { LinkEvents, PlatformLink } from '../../../src/platform/link.js'
import type { AuthStore, ContactStore, StoredContact } from '../../../src/storage/types.js'
import { removeMediaTempDirs } from '../../../src/media/temp-dir.js'
import { FakeSocket } from './fake-socket.js'
import { waitFor } from '../wait-for.js'
import { type OnLoopback, serveFiles } from '../loopback-server.js'

const holder = vi.hoisted(() => ({ sockets: [] as unknown[] }))

vi.mock('@whiskeysockets/baileys', async importOriginal => {
  const actual = await importOriginal<typeof import('@whiskeysockets/baileys')>()
  const make = (config: Record<string, unknown>) => {
    const { FakeSocket: Fake } = holder as unknown as { FakeSocket: typeof FakeSocket }
    const sock = new Fake(config)
    holder.sockets.push(sock)
    return sock
  }
  return { ...actual, default: make, makeWASocket: make }
})

const { createBaileysLink } = await import('../../../src/platform/baileys/baileys-link.js')
;(holder as unknown as { FakeSocket: typeof FakeSocket }).FakeSocket = FakeSocket

// Each test's harness takes the first socket made after it starts.
beforeEach(() => {
  holder.sockets.length = 0
})

export interface Harness {
  link: PlatformLink
  sock: FakeSocket
  events: Array<[keyof LinkEvents, ...unknown[]]>
  credsWrites: unknown[]
  contacts: StoredContact[]
}

/** A link on a fake socket, with in-memory auth and contact stores and every link event recorded in order. */
export async function harness(
  opts: {
    creds?: ReturnType<typeof initAuthCreds>
    contacts?: StoredContact[]
    env?: Record<string, string>
    sandbox?: boolean
    /** The web client version the link is told to name (LinkOptions.clientVersion). */
    clientVersion?: readonly [number, number, number]
  } = {},
): Promise<Harness> {
  const events: Harness['events'] = []
  const credsWrites: unknown[] = []
  const contacts: StoredContact[] = [...(opts.contacts ?? [])]
  const auth: AuthStore = {
    readCreds: async () => opts.creds,
    writeCreds: async creds => {
      credsWrites.push(JSON.parse(JSON.stringify(creds)))
    },
    keys: { get: async () => ({}), set: async () => undefined },
    clear: async () => undefined,
  }
  const contactStore: ContactStore = {
    all: async () => contacts,
    upsert: async rows => {
      contacts.push(...rows)
    },
    clear: async () => {
      contacts.length = 0
    },
  }
  const settings = loadSettings({
    MEDIA_ALLOW_PRIVATE_URLS: 'true',
    ACK_TIMEOUT_MS: '2000',
    QUERY_TIMEOUT_MS: '2000',
    ...opts.env,
  })
  const link = createBaileysLink({
    id: 's1',
    auth,
    contacts: contactStore,
    logger: pino({ level: 'silent' }),
    settings,
    ...(opts.clientVersion ? { clientVersion: opts.clientVersion } : {}),
    ...(opts.sandbox
      ? {
          sandbox: {
            wsUrl: 'wss://127.0.0.1:9/ws',
            rootPublicKey: Buffer.alloc(32, 7).toString('base64'),
            caCert: 'PEM',
          },
        }
      : {}),
    events: {
      qr: qr => events.push(['qr', qr]),
      paired: me => events.push(['paired', me]),
      open: me => events.push(['open', me]),
      name: name => events.push(['name', name]),
      close: (reason, detail) => events.push(['close', reason, detail]),
      restrictions: update => events.push(['restrictions', update]),
      conversations: phones => events.push(['conversations', phones]),
    },
  })
  const sock = await waitFor('socket', () => holder.sockets[0] as FakeSocket | undefined, 5_000, 10)
  return { link, sock, events, credsWrites, contacts }
}

export const closeEvents = (h: Harness) => h.events.filter(e => e[0] === 'close')
export const errorOf = async (p: Promise<unknown>) =>
  (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as GatewayError

/**
 * Serves a 1600×1200 JPEG at `<base>/p.jpg` for the file's tests (media the link downloads), and removes the
 * download temp folders afterwards. Registers its hooks; returns the base URL, read once the file has started.
 */
export function imageServer(): { readonly base: string } {
  let mediaDir: string
  let server: OnLoopback<http.Server>
  const served = { base: '' }
  beforeAll(async () => {
    mediaDir = await mkdtemp(path.join(os.tmpdir(), 'link-test-'))
    const jpeg = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#226644' } })
      .jpeg()
      .toBuffer()
    server = await serveFiles({ '/p.jpg': { body: jpeg, type: 'image/jpeg' } })
    served.base = server.url
  })
  afterAll(async () => {
    await server.close()
    await rm(mediaDir, { recursive: true, force: true })
    await removeMediaTempDirs()
  })
  return served
}
