/**
 * @module http/qr-page/page-script
 * The browser script of the QR page, plain ES2020 served as a module (no framework, no build step, works offline).
 *
 * The page only ever holds a view-only token (http/endpoints/view-link/route.ts), never a session's secret:
 * - a view link (`#view=<token>`, from POST /session/view-link) is followed with GET /session/qr, header
 *   `view-token`: each request after the first sends the ETag of the answer shown (`If-None-Match`) and `?wait=25`,
 *   so the gateway answers the moment the QR rotates, a pairing code is issued, or the session pairs (304 when
 *   nothing changed within the wait, and the page asks again at once). A 304 that did not wait (waiting turned off)
 *   and a 429 (too many waits) fall back to polling every 2.5 s (SPEC: every 2 to 3 s). The page shows the current
 *   QR (replaced when it rotates) and a pending pairing code (POST /session/pairing-code) with its expiry, then
 *   "linked" once the phone paired the session (asked with `?linkedStatus=200`, it answers 200 `{linked: true}`
 *   rather than a 410 the browser would log as an error), or why the link no longer works (404). A page opened with
 *   a view link shows no id/session-id form: whoever holds the link has neither;
 * - an operator who types the id and session-id into the form gets a view link for them (one POST
 *   /session/view-link), and the page goes on with its token: the secret leaves the form at once and never reaches
 *   the URL, the history or any later request;
 * - an old link carrying the secret (`#id=…&session-id=…` or `?id=…&session-id=…`) is refused: the page wipes it
 *   from the address bar and says why, without using it (such a link hands out the whole API).
 * Text is only ever set with `textContent`, never parsed as HTML, so nothing the gateway returns can inject markup.
 *
 * Kept as a string (no template literal inside it) so the compiled gateway serves it without copying asset files.
 */
// biome-ignore lint/complexity/noUselessStringRaw: raw on purpose: a backslash in the page script must reach the browser as written
export const QR_PAGE_SCRIPT = String.raw`
const POLL_MS = 2500
const WAIT_S = 25

const $ = (id) => document.getElementById(id)
const form = $('session-form')
const statusLine = $('status')
const qr = $('qr')
const qrImage = $('qr-image')
const codeBox = $('pairing-code')
const codeValue = $('pairing-code-value')
const codeExpiry = $('pairing-code-expiry')

// Each start() bumps the generation; answers for an older one are dropped, so a new link never shows an old QR.
let generation = 0
let timer = undefined
let shownQr = ''
// The ETag of the answer shown: the next request waits until the answer differs from it.
let etag = undefined
// The request in flight (it may wait up to WAIT_S): a new link aborts it, which frees its slot at the gateway at once.
let inFlight = undefined

/** Ends what the page was following: its timer and its request in flight. */
function forget() {
  generation += 1
  clearTimeout(timer)
  inFlight?.abort()
  etag = undefined
}

function tokenFromUrl() {
  return new URLSearchParams(location.hash.slice(1)).get('view') || undefined
}

/** True when the address holds a session secret (an old link): it is wiped at once, never used. */
function scrubSecretLink() {
  const fragment = new URLSearchParams(location.hash.slice(1))
  const query = new URLSearchParams(location.search)
  const secret = fragment.has('session-id') || query.has('session-id')
  if (secret || fragment.has('id') || query.has('id')) history.replaceState(null, '', location.pathname)
  return secret
}

function setStatus(state, text) {
  statusLine.dataset.state = state
  statusLine.textContent = text
  document.body.dataset.state = state
}

function showQr(base64Png) {
  if (base64Png !== shownQr) {
    shownQr = base64Png
    qrImage.src = 'data:image/png;base64,' + base64Png
  }
  qr.hidden = false
}

function hideQr() {
  qr.hidden = true
  shownQr = ''
  qrImage.removeAttribute('src')
}

/** A pending pairing code, or null: typed on the phone instead of scanning. */
function showCode(pairing) {
  if (!pairing || typeof pairing.code !== 'string') return hideCode()
  codeValue.textContent = pairing.code
  const until = new Date(pairing.expiresAt)
  codeExpiry.textContent = isNaN(until) ? '' : 'Valid until ' + until.toLocaleTimeString() + '.'
  codeBox.hidden = false
}

function hideCode() {
  codeBox.hidden = true
  codeValue.textContent = ''
  codeExpiry.textContent = ''
}

function stop(state, text) {
  hideQr()
  hideCode()
  setStatus(state, text)
  return false
}

async function messageOf(res) {
  const body = await res.json().catch(() => ({}))
  return typeof body.message === 'string' ? body.message : res.statusText
}

function linked() {
  return stop('linked', 'Linked: the phone is now connected. This view link no longer works.')
}

/** Shows one GET /session/qr answer; false when polling should end. */
async function handle(res) {
  if (res.status === 200) {
    const view = await res.json()
    if (view.linked === true) return linked()
    showCode(view.pairingCode)
    if (view.qrcode) {
      showQr(view.qrcode)
      setStatus('qr', 'Scan this QR code with the phone.')
    } else {
      hideQr()
      setStatus('waiting', 'Waiting for the QR code…')
    }
    return true
  }
  const message = await messageOf(res)
  if (res.status === 410) return linked()
  if (res.status === 404) {
    return stop('not-found', 'This view link has expired or was withdrawn (a link lasts until the QR window ' +
      'closes, about 3 minutes, and ends when the session is reset or deleted). Ask for a new one.')
  }
  if (res.status === 400) return stop('invalid', 'The gateway refused the link: ' + message + '.')
  hideQr()
  hideCode()
  setStatus('error', 'The gateway answered ' + res.status + ' (' + message + '); trying again…')
  return true
}

async function poll(token, mine) {
  let again = true
  let delay = POLL_MS
  const asked = Date.now()
  const headers = { 'view-token': token }
  if (etag) headers['if-none-match'] = etag
  inFlight = new AbortController()
  try {
    // linkedStatus=200: a paired session answers 200 {linked: true}, not 410, which the browser would log as an error
    const url = '/session/qr?linkedStatus=200' + (etag ? '&wait=' + WAIT_S : '')
    const res = await fetch(url, { headers, cache: 'no-store', signal: inFlight.signal })
    if (mine !== generation) return
    if (res.status === 304) {
      // unchanged for the whole wait: ask again at once (after a pause if the gateway did not wait)
      if (Date.now() - asked > 1000) delay = 0
    } else if (res.status === 429) {
      // too many waits: the next request polls without waiting, and the one after it tries again
      etag = undefined
    } else {
      etag = res.status === 200 ? res.headers.get('etag') || undefined : undefined
      again = await handle(res)
      if (etag) delay = 0
    }
  } catch {
    if (mine !== generation) return
    etag = undefined
    // A QR (or code) the gateway can no longer vouch for may be stale by the time the phone uses it: hide it.
    hideQr()
    hideCode()
    setStatus('offline', 'Cannot reach the gateway; trying again…')
  }
  if (again && mine === generation) timer = setTimeout(() => poll(token, mine), delay)
}

/** The form is for an operator with the id and session-id; a view link's holder has neither, and sees no form. */
function showForm(shown) {
  form.hidden = !shown
}

function start(token) {
  forget()
  showForm(false)
  hideQr()
  hideCode()
  setStatus('loading', 'Asking the gateway…')
  poll(token, generation)
}

/** Trades the typed id and session-id for a view link (one request), then follows its token. */
async function openTyped(id, sessionId) {
  forget()
  hideQr()
  hideCode()
  setStatus('loading', 'Asking the gateway for a view link…')
  let res
  try {
    res = await fetch('/session/view-link', { method: 'POST', headers: { id, 'session-id': sessionId }, cache: 'no-store' })
  } catch {
    return stop('offline', 'Cannot reach the gateway.')
  }
  if (res.status === 200) {
    const token = new URLSearchParams(new URL((await res.json()).url).hash.slice(1)).get('view')
    if (token) {
      history.replaceState(null, '', location.pathname + '#' + new URLSearchParams({ view: token }))
      start(token)
      return true
    }
  }
  const message = await messageOf(res)
  if (res.status === 404) {
    return stop('not-found', 'Session not found: the id or session-id is wrong, or the session is gone ' +
      '(an unscanned QR expires after about 3 minutes, then the session is deleted). Create a new one with POST /session.')
  }
  if (res.status === 409) return stop('linked', 'This session is already linked to a phone; there is no QR to show.')
  if (res.status === 400) return stop('invalid', 'The gateway refused the id or session-id: ' + message + '.')
  return stop('error', 'The gateway answered ' + res.status + ' (' + message + ').')
}

form.addEventListener('submit', (event) => {
  event.preventDefault()
  const id = form.elements['id'].value.trim()
  const sessionId = form.elements['session-id'].value.trim()
  if (!id || !sessionId) return
  // The secret is used for this one request and kept nowhere: not in the form, the URL or the history.
  form.elements['session-id'].value = ''
  openTyped(id, sessionId)
})

// Following another view link to this page (or editing the fragment) switches to it.
window.addEventListener('hashchange', () => {
  if (scrubSecretLink()) return refuseSecretLink()
  const token = tokenFromUrl()
  if (token) start(token)
})

function refuseSecretLink() {
  forget()
  showForm(true)
  stop('secret-link', 'This link carried the session-id, which gives the whole API; the page no longer takes it and ' +
    'has removed it from the address bar. Ask for a view-only link (POST /session/view-link) instead, or type the id ' +
    'and session-id below.')
}

if (scrubSecretLink()) refuseSecretLink()
else {
  const initial = tokenFromUrl()
  if (initial) start(initial)
  else showForm(true)
}
`
