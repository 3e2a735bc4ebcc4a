/**
 * @module sandbox/handlers/types
 * The contract between the stanza router and the per-xmlns iq handlers.
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { CompanionConnection } from '../connection.js'
import type { SandboxContext } from '../context.js'

/**
 * Answers one iq. Returns the full reply (built with iqResult/iqError), or undefined for an empty result.
 */
export type IqHandler = (
  ctx: SandboxContext,
  conn: CompanionConnection,
  iq: BinaryNode,
) => Promise<BinaryNode | undefined> | BinaryNode | undefined
