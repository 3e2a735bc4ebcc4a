/**
 * @module http/api-paths
 * The paths and header names that the app's routes and a front in front of them both read (cluster mode's front
 * forwards a request for a session to the node that runs it), in one place: a route added or renamed here is one the
 * front routes too, and a header the app answers with is the one the front looks for.
 */

/**
 * The first segment of every path of the API for one session (the ops endpoints, docs and QR page are every node's
 * own). A test ties this list to the endpoints' paths (test/unit/http/api-paths.test.ts).
 */
export const SESSION_API_ROOTS: readonly string[] = ['session', 'message', 'status', 'typing', 'group', 'channel']

/**
 * GET: the session's state; POST: a new session, which is every node's own (nothing unauthenticated crosses to
 * another node).
 */
export const SESSION_PATH = '/session'

/** GET: the session's QR, for its client or, with a view token, for whoever holds a view link. */
export const VIEW_QR_PATH = '/session/qr'

/** The header a view link's holder sends its token in (GET /session/qr). */
export const VIEW_TOKEN_HEADER = 'view-token'

/**
 * Set on a 503 SESSION_MOVING, which a node answers having run nothing of the request (the session is on its way to
 * or from it): a node that forwarded the request asks again where the session is instead of passing the 503 on
 * (cluster mode's forwarding); a client may ignore it.
 */
export const MOVING_HEADER = 'x-gateway-moving'
