/**
 * @module sandbox/keep-alive
 * How long the sandbox's servers (control API, media host) keep an idle kept-alive connection: Node's 5 s raced
 * the clients that reuse theirs (the side-by-side bench's driver, Baileys' media uploads through a keep-alive
 * agent), and a request sent just as the server closed the connection failed with `socket hang up` or
 * `ECONNRESET`: a pairing failed in the bench for either gateway, on the sandbox's side. The gateway keeps its own
 * for 65 s too (src/http/server.ts).
 */
export const IDLE_CONNECTION_MS = 65_000
