/**
 * @module sandbox/client-address
 * The address a client's connection came from, as GET /stats and GET /devices report it: IPv4 without the
 * `::ffff:` of a dual-stack socket, so a proxy bound to 127.0.0.2 reads `127.0.0.2`.
 */
import type { Socket } from 'node:net'

export const clientAddress = (socket: Socket): string => (socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '')
