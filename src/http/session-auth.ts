/**
 * @module http/session-auth
 * Authentication for every endpoint but POST /session (SPEC: Authentication): headers `id` and `session-id` must
 * be non-empty strings (else 400 `invalid header`), and must name a live session (else 404 `session not found`).
 * The system compares the secret in constant time; an unknown id and a wrong secret answer the same way.
 */
import type { Request } from 'express'
import type { SessionSystem } from '../actors/main/session-system.js'
import { GatewayError } from '../protocol/errors.js'
import type { SessionSnapshot } from '../protocol/snapshot.js'

/** What an authenticated route knows about its caller. */
export interface AuthenticatedSession {
  id: string
  sessionId: string
  snapshot: SessionSnapshot
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The caller's session, or the error to answer: 400 `invalid header`, 404 `session not found`. */
export function authenticate(system: SessionSystem, req: Request): AuthenticatedSession {
  const id = headerValue(req.headers.id)
  const sessionId = headerValue(req.headers['session-id'])
  if (id === undefined || sessionId === undefined) throw new GatewayError('INVALID_HEADER')
  const snapshot = system.authenticate(id, sessionId)
  if (snapshot === undefined || snapshot.state === 'deleted') throw new GatewayError('SESSION_NOT_FOUND')
  return { id, sessionId, snapshot }
}
