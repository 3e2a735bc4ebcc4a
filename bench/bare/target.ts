/**
 * @module bench/bare/target
 * What bench:bare measures, as its client loop sees it: Baileys alone in this process (client.ts) or the gateway
 * through POST /message (gateway-target.ts). A file of its own, so that neither of the two imports the other.
 */

/** What the runner measures: a paired sender, its CPU so far, and who it is. */
export interface Target {
  runtime: string
  pairSeconds: number
  /** Sends loop k's text and resolves with its message id once acknowledged (Baileys: the server ack; gateway: 200). */
  send(k: number, text: string): Promise<string>
  /** CPU ms used so far by what is measured, in all and by kind of thread where known. */
  cpu(): { ms: number; byThread?: Record<string, number> }
  rssMb(): number
  close(): void
}
