/**
 * @module platform/baileys/patches/patch-list
 * The list of every patch the gateway makes to Baileys, libsignal or Node's built-ins in a shard thread: what each
 * one changes, the version of the package it was written and tested against, why, what it measured, and who
 * installs it. What is done with the list (installing each patch where its package is at that version, reporting
 * each one's state) is ./inventory.ts; the list of docs/contributing.md is held to this one
 * (test/unit/platform/baileys/patches/patch-list-doc.test.ts).
 */
import { asyncMutexPatches } from './async-mutex.js'
import { binaryEncoderPatch } from './binary-encoder.js'
import { installBufferPoolSize } from './buffer-pool.js'
import { installCryptoKeyObjects } from './crypto-keys.js'
import { messageIdPatch } from './message-id.js'
import { installRandomPool } from './random-pool.js'
import { installSignalHmac } from './signal-hmac.js'
import { installSignalQueueContext } from './signal-queue-context.js'
import type { SourcePatch } from './source-hook.js'
import { timeoutHelpersPatch } from './timeout-helpers.js'
import { wasmBridgePatches } from './wasm-bridge.js'
import { installX25519Keygen } from './x25519-keygen.js'

export interface PlatformPatch {
  name: string
  /** The package whose code it rewrites or wraps (`node` for Node's built-ins: the version is the major). */
  target: '@whiskeysockets/baileys' | 'libsignal' | 'node'
  /** The version it was written and tested against; another installed version leaves it out. */
  writtenFor: string
  why: 'CPU per message' | 'CPU per pairing' | 'correctness' | 'security' | 'memory'
  /** What it measured, where it was measured (BENCHMARKS.md). */
  gain: string
  /** A rewrite of a source file as it loads (or of several, all of which must apply). */
  source?: SourcePatch | readonly SourcePatch[]
  /** Installed once per thread by `installPlatformPatches` (./inventory.ts). */
  install?: () => void
  /**
   * Installed elsewhere (per socket, per link or with the shard's logger): the module (under `platform/baileys/`)
   * that does it, only when `patchApplies(name)` says the installed version is the one it was written for.
   */
  installedBy?: { module: string; how: string }
}

export const BAILEYS = '@whiskeysockets/baileys'
const BAILEYS_VERSION = '7.0.0-rc14'

export const PLATFORM_PATCHES: readonly PlatformPatch[] = [
  {
    name: 'timeout helpers',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'CPU per message',
    gain: 'promiseTimeout 49-52 → 3.5 µs a call; with the lazy stacks −12 % / −6 % gateway CPU per text (BENCHMARKS.md, 2026-11-26); no stack at all (2026-11-27): the 2.5 % of a shard\'s CPU per text its `new Error()` took goes; with the hkdf key and the mutex −0.49 ms gateway CPU per text (median of 5 paired rounds, lower in each; BENCHMARKS.md "Three costs on a text\'s path")',
    source: timeoutHelpersPatch,
  },
  {
    name: 'message id',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'CPU per message',
    gain: "generateMessageIDV2 3.0-3.2 % → 1.7-1.8 % of a shard's CPU per send (2026-11-26)",
    source: messageIdPatch,
  },
  {
    name: 'mutex',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'CPU per message',
    gain: "runExclusive ~2 → 0.3 µs a call; async-mutex was 2.8 % of a shard's CPU per text (2026-11-27, BENCHMARKS.md)",
    source: asyncMutexPatches,
  },
  {
    name: 'binary node encoder',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'CPU per message',
    gain: 'encodeBinaryNode of a 1:1 text stanza 22.8 → 2.7-3.2 µs and 59 → 0.35 KB of heap, of a receipt ack 3.2-3.5 → 0.7-0.8 µs and 2.7-5.6 → 0.17 KB (bench:encode, BENCHMARKS.md, 2026-11-28)',
    source: binaryEncoderPatch,
  },
  {
    name: 'wasm bridge',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'memory',
    gain: "the shard thread never loads whatsapp-rust-bridge (+18 MB RSS in a bare process); −7 MB RSS with 50 idle sessions; its hkdf (each message's reporting token) takes a KeyObject: −0.15 ms gateway CPU per text (median of 4 paired rounds, lower in each; 2026-11-27)",
    source: wasmBridgePatches,
  },
  {
    name: 'crypto key objects',
    target: 'node',
    writtenFor: '24',
    why: 'CPU per message',
    gain: 'HMAC 54 → 8 µs, AES-256-GCM 38 → 11 µs a call; −10 % / −19 % gateway CPU per text (2026-11-26)',
    install: installCryptoKeyObjects,
  },
  {
    name: 'random byte pool',
    target: 'node',
    writtenFor: '24',
    why: 'CPU per message',
    gain: '−0.17 ms gateway CPU per text (median of 4 paired rounds, lower in each); shard threads 2.17 → 2.02 ms (2026-11-27)',
    install: installRandomPool,
  },
  {
    name: 'small Buffer slab',
    target: 'node',
    writtenFor: '24',
    why: 'memory',
    gain: 'Buffer.poolSize 64 → 8 KB: a shard with 114 idle sessions held 90 mostly-garbage 64 KB slabs, ~50 KB a session (heap snapshot)',
    install: installBufferPoolSize,
  },
  {
    name: 'deferred child loggers',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'CPU per message',
    gain: '−0.08 ms gateway CPU per text (medians of two sittings of paired rounds, 6 of 10 rounds lower; 2026-11-27)',
    installedBy: {
      module: 'link/socket-config.ts',
      how: 'per socket: link/deferred-logger.ts, the logger Baileys gets',
    },
  },
  {
    name: 'X25519 key pairs',
    target: 'libsignal',
    writtenFor: '6.0.0',
    why: 'CPU per pairing',
    gain: 'a key pair 80 → 45 µs (~812 a pairing): gateway CPU per pairing 132 → 102 ms, pairings/s 7.85 → 10.1 (bench:pairing, medians of 3 alternating runs; 2026-11-27)',
    install: installX25519Keygen,
  },
  {
    name: 'HMAC by one-shot hashes',
    target: 'libsignal',
    writtenFor: '6.0.0',
    why: 'CPU per message',
    gain: 'an HMAC 3.0 → 1.9 µs, deriveSecrets 12.8 → 7.2 µs, the reporting token\'s hkdf 6.2 → 4.0 µs a call; shard thread −0.07 ms CPU per text (median of 5 paired rounds, lower in each), gateway −0.05 ms (3 of 5 rounds lower; 2026-11-28, BENCHMARKS.md "HMAC by one-shot hashes")',
    install: installSignalHmac,
  },
  {
    name: 'signal queue context',
    target: 'libsignal',
    writtenFor: '6.0.0',
    why: 'correctness',
    gain: 'no lost ratchet step when sessions of one thread write to one contact at once (contact-burst system test); one AsyncResource a job instead of AsyncResource.bind: 2.1 → 0.1 µs a job (2026-11-28)',
    install: installSignalQueueContext,
  },
  {
    name: 'platform signature check',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'security',
    gain: 'the noise certificate chain and the account signature are checked (VERIFY_PLATFORM_SIGNATURES)',
    installedBy: { module: 'link/socket-config.ts', how: 'per socket, from the setting' },
  },
  {
    name: 'sent message in the key commit',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'CPU per message',
    gain: 'one lmdb transaction per send instead of two: −0.13 ms gateway CPU per text, libuv pool 0.47 → 0.31 ms (2026-11-27)',
    installedBy: { module: 'link/retry-messages.ts', how: "per socket: wraps the retry manager's addRecentMessage" },
  },
  {
    name: 'no second copy for retries',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'CPU per message',
    gain: "a message the store keeps (RETRY_STORE_MAX_MESSAGES ≥ Baileys' 512) is not also kept in Baileys' memory for 5 minutes (an LRU entry and a timer each): −0.09 ms gateway CPU per text (median of 5 paired rounds, lower in each), RSS after a 15 s burst −46 to −161 MB, median −123 (2026-11-28, BENCHMARKS.md, What survives a send)",
    installedBy: {
      module: 'link/retry-messages.ts',
      how: "per socket: the same wrap of the retry manager's addRecentMessage",
    },
  },
  {
    name: 'privacy-token record',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'CPU per message',
    gain: 'no privacy-token iq per send: +1.0 ms per text without it (2026-11-26)',
    installedBy: { module: 'link/messages.ts', how: 'after each acknowledged 1:1 send: link/tc-token.ts' },
  },
  {
    name: 'lazy socket caches',
    target: BAILEYS,
    writtenFor: BAILEYS_VERSION,
    why: 'memory',
    gain: "~80 KB of heap per idle session: four NodeCaches and the retry manager's LRUs made on first write (2026-11-26)",
    installedBy: { module: 'link/socket-config.ts', how: 'per socket: link/lazy-caches.ts' },
  },
  {
    name: 'libsignal console',
    target: 'libsignal',
    writtenFor: '6.0.0',
    why: 'security',
    gain: "no session record (private ratchet keys) printed by libsignal's console lines",
    installedBy: { module: 'module.ts', how: 'installPatches, with the shard logger' },
  },
]

/** The patches their callers install (the names `patchApplies` takes). */
export const CALLER_PATCHES = [
  'deferred child loggers',
  'platform signature check',
  'sent message in the key commit',
  'no second copy for retries',
  'privacy-token record',
  'lazy socket caches',
  'libsignal console',
] as const
export type CallerPatch = (typeof CALLER_PATCHES)[number]
