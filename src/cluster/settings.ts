/**
 * @module cluster/settings
 * Cluster mode's slice of the settings (docs/cluster.md: Settings). REDIS_URL turns it on; the rest has
 * defaults but CLUSTER_SECRET, which each node must be given: it is what makes a node a node (cluster/peer-auth.ts),
 * and it never travels through Redis.
 */
import os from 'node:os'
import { z } from 'zod'
import { bool, int, optional, optionalFile, pickSettings, secret, type SliceOf } from '../settings/fields.js'
import { leaseMargin } from './store/lease-deadline.js'

export const CLUSTER_SETTINGS = {
  /**
   * Cluster mode (docs/cluster.md): the registry, credentials, Signal keys and contacts live in this Redis
   * (`redis://` or `rediss://`) instead of lmdb under DATA_DIR, and the process holds a lease per session.
   */
  REDIS_URL: secret(
    optional(
      z
        .string()
        .url()
        .refine(u => /^rediss?:\/\//.test(u), 'expected a redis:// or rediss:// URL'),
    ),
  ),
  /**
   * The secret every node of a cluster shares and nothing else knows (32+ characters, one word): nodes sign their
   * heartbeat records and every request they forward with keys derived from it. Required with REDIS_URL.
   */
  CLUSTER_SECRET: secret(
    optional(
      z
        .string()
        .min(32, 'must be at least 32 characters (use a long random value)')
        .refine(v => !/\s/.test(v), 'must not contain whitespace'),
    ),
  ),
  /** This process's name in the leases it holds; unique per process. Default: the host name. */
  NODE_ID: z
    .string()
    .default(os.hostname())
    .refine(
      v => /^[A-Za-z0-9._:-]{1,100}$/.test(v),
      'expected 1-100 letters, digits, dots, dashes, underscores or colons',
    ),
  /** How long a session's lease lives without renewal (a dead node's sessions wait this long), and how often a
   * node renews its leases. A node stops a session's link once TTL minus a margin (3 s, or TTL/5) passed since
   * the last renewal it sent that succeeded. */
  CLUSTER_LEASE_TTL_MS: int(15_000, 500),
  CLUSTER_RENEW_MS: int(5_000, 50),
  /**
   * Cluster mode: the address the other nodes forward this node's requests to (e.g. `https://10.0.0.7:3000`).
   * Default: `http://<HOST>:<PORT>` when HOST is one address, else `http://<host name>:<PORT>`.
   */
  ADVERTISE_URL: z
    .string()
    .url()
    .refine(u => /^https?:\/\/[^/@]+\/?$/.test(u), 'expected an http(s) origin, with no path')
    .optional(),
  /** Trust anchors (PEM) for the other nodes' https addresses; unset = the system's CAs. */
  CLUSTER_CA_FILE: optionalFile(),
  /** Forward only to nodes whose address is https (and advertise an https address). */
  CLUSTER_REQUIRE_TLS: bool(false),
  /** Connections one node keeps to each other node for forwarded requests, and how long a request waits for one. */
  CLUSTER_FORWARD_SOCKETS: int(256, 1),
  CLUSTER_FORWARD_QUEUE_MS: int(5_000, 1),
  /**
   * The share of CLUSTER_FORWARD_SOCKETS one session's requests may hold at once (and as many again its view links'),
   * so that one tenant cannot fill a node's pool to another and make every other tenant's requests wait for it.
   */
  CLUSTER_FORWARD_SESSION_PERCENT: int(25, 1).refine(v => v <= 100, 'expected 1..100'),
  /**
   * A forwarded answer, from its first byte, must be read through within CLUSTER_FORWARD_ANSWER_MS and never stand
   * still for CLUSTER_FORWARD_STALL_MS; past either both connections close (a client that does not read holds a
   * connection between the nodes that long at most).
   */
  CLUSTER_FORWARD_ANSWER_MS: int(30_000, 1),
  CLUSTER_FORWARD_STALL_MS: int(10_000, 1),
  /** How long a request for a session that is moving between nodes waits for it to be up again (then 503). */
  CLUSTER_MOVE_WAIT_MS: int(10_000, 0),
  /**
   * Cluster mode: how often a node tells the others it is alive and how loaded it is, and checks where sessions
   * belong. A node missing for three heartbeats is dead to the others: its sessions move once their leases expire.
   */
  CLUSTER_HEARTBEAT_MS: int(2_000, 50),
  /** Cluster mode: sessions a node hands to a newly joined node per second (a join spreads load gradually). */
  CLUSTER_REBALANCE_PER_SECOND: int(2, 1),
  /**
   * Cluster mode: how long a node whose process was frozen past its leases (SIGSTOP, a long GC, a suspended VM)
   * stays out of placement after it runs again: it forwards requests but takes no session, so a flapping node
   * cannot pull sessions back and forth.
   */
  CLUSTER_REJOIN_QUIET_MS: int(30_000, 0),
}

/** The connections to a peer one session may hold (CLUSTER_FORWARD_SESSION_PERCENT of the pool), at least one. */
export const sessionShare = (sockets: number, percent: number): number =>
  Math.max(1, Math.floor((sockets * percent) / 100))

/** The values of the slice, as the rest of the gateway reads them. */
export type ClusterSettings = SliceOf<typeof CLUSTER_SETTINGS>

export const clusterSettings = (values: ClusterSettings): ClusterSettings => pickSettings(values, CLUSTER_SETTINGS)

/** What the slice's fields cannot say alone; undefined when the values fit together, else the one line to print. */
export function checkClusterSettings(s: ClusterSettings, env: NodeJS.ProcessEnv): string | undefined {
  const { CLUSTER_LEASE_TTL_MS: ttl, CLUSTER_RENEW_MS: renew } = s
  // A renewal must be able to land (twice) before the deadline that stops the node's links.
  if (renew * 2 > ttl - leaseMargin(ttl)) {
    return (
      `invalid setting CLUSTER_RENEW_MS: expected at most half of CLUSTER_LEASE_TTL_MS minus its ` +
      `margin (${Math.floor((ttl - leaseMargin(ttl)) / 2)} ms), got ${JSON.stringify(env.CLUSTER_RENEW_MS ?? String(renew))}`
    )
  }
  if (s.REDIS_URL !== undefined && s.CLUSTER_SECRET === undefined)
    return 'invalid setting CLUSTER_SECRET: cluster mode (REDIS_URL) needs it: the same 32+ character secret on every node'
  if (s.CLUSTER_REQUIRE_TLS && s.ADVERTISE_URL !== undefined && !s.ADVERTISE_URL.startsWith('https://'))
    return 'invalid setting ADVERTISE_URL: CLUSTER_REQUIRE_TLS=true needs an https:// address'
  return undefined
}
