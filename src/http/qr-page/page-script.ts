/**
 * @module http/qr-page/page-script
 * The browser script of the QR page, plain ES2020 served as a module (no framework, no build step, works offline).
 *
 * It takes `id` and `session-id` from the URL fragment (`#id=…&session-id=…`: a fragment never reaches the server,
 * so the secret stays out of access logs), else from the query (then moves them into the fragment, out of the
 * browser history and referrers), else from the form. It then polls GET /session every 2.5 s (SPEC: every 2 to 3 s)
 * and shows what the answer means to an operator: the current QR (replaced when it rotates), the connected account's
 * name, number and picture, a lost connection, or why the session cannot be shown. Text is only ever set with
 * `textContent`, never parsed as HTML, so nothing the gateway or the platform returns can inject markup.
 *
 * Kept as a string (no template literal inside it) so the compiled gateway serves it without copying asset files.
 */
export const QR_PAGE_SCRIPT = String.raw`
const POLL_MS = 2500

const $ = (id) => document.getElementById(id)
const form = $('session-form')
const statusLine = $('status')
const qr = $('qr')
const qrImage = $('qr-image')
const account = $('account')
const picture = $('account-picture')

// Each start() bumps the generation; answers for an older one are dropped, so a new id never shows an old QR.
let generation = 0
let timer = undefined
let shownQr = ''
let shownPicture = ''

function credentialsFrom(params) {
  const id = params.get('id')
  const sessionId = params.get('session-id')
  return id && sessionId ? { id, sessionId } : undefined
}

function credentialsFromUrl() {
  const fromFragment = credentialsFrom(new URLSearchParams(location.hash.slice(1)))
  if (fromFragment) return fromFragment
  const fromQuery = credentialsFrom(new URLSearchParams(location.search))
  if (fromQuery) history.replaceState(null, '', location.pathname + '#' + linkParams(fromQuery))
  return fromQuery
}

function linkParams(c) {
  return new URLSearchParams({ id: c.id, 'session-id': c.sessionId }).toString()
}

function setStatus(state, text) {
  statusLine.dataset.state = state
  statusLine.textContent = text
  document.body.dataset.state = state
}

function showQr(base64Png) {
  account.hidden = true
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

function showAccount(view) {
  hideQr()
  $('account-name').textContent = view.name || '(no name set)'
  const number = (view.generatedId || '').split(/[:@]/)[0]
  $('account-number').textContent = number ? '+' + number : ''
  const url = /^https?:\/\//.test(view.picture || '') ? view.picture : ''
  if (url !== shownPicture) {
    shownPicture = url
    picture.hidden = true
    if (url) picture.src = url
    else picture.removeAttribute('src')
  }
  account.hidden = false
}

// A picture the browser cannot load (expired CDN link, blocked host) is left out rather than shown broken.
picture.addEventListener('load', () => { picture.hidden = false })
picture.addEventListener('error', () => { picture.hidden = true })

function render(view) {
  if (view.isConnected) {
    showAccount(view)
    setStatus('connected', 'Connected as ' + (view.name || view.generatedId) + '.')
  } else if (view.qrcode) {
    showQr(view.qrcode)
    setStatus('qr', 'Scan this QR code with the phone.')
  } else if (view.generatedId) {
    hideQr()
    setStatus('reconnecting', 'Linked, but the connection to the platform is lost; reconnecting…')
  } else {
    hideQr()
    setStatus('waiting', 'Waiting for the QR code…')
  }
}

function stop(state, text) {
  hideQr()
  account.hidden = true
  setStatus(state, text)
  return false
}

/** Shows one GET /session answer; false when polling should end. */
async function handle(res) {
  if (res.status === 200) {
    render(await res.json())
    return true
  }
  const body = await res.json().catch(() => ({}))
  const message = typeof body.message === 'string' ? body.message : res.statusText
  if (res.status === 404) {
    return stop('not-found', 'Session not found: the id or session-id is wrong, or the session is gone ' +
      '(an unscanned QR expires after about 3 minutes, then the session is deleted). Create a new one with POST /session.')
  }
  if (res.status === 400) return stop('invalid', 'The gateway refused the id or session-id: ' + message + '.')
  hideQr()
  setStatus('error', 'The gateway answered ' + res.status + ' (' + message + '); trying again…')
  return true
}

async function poll(c, mine) {
  let again = true
  try {
    const res = await fetch('/session', { headers: { id: c.id, 'session-id': c.sessionId }, cache: 'no-store' })
    if (mine !== generation) return
    again = await handle(res)
  } catch {
    if (mine !== generation) return
    // A QR the gateway can no longer vouch for may be stale by the time the phone scans it: hide it.
    hideQr()
    setStatus('offline', 'Cannot reach the gateway; trying again…')
  }
  if (again && mine === generation) timer = setTimeout(() => poll(c, mine), POLL_MS)
}

function start(c) {
  generation += 1
  clearTimeout(timer)
  shownPicture = ''
  account.hidden = true
  hideQr()
  form.elements['id'].value = c.id
  form.elements['session-id'].value = c.sessionId
  setStatus('loading', 'Asking the gateway…')
  poll(c, generation)
}

form.addEventListener('submit', (event) => {
  event.preventDefault()
  const c = { id: form.elements['id'].value.trim(), sessionId: form.elements['session-id'].value.trim() }
  if (!c.id || !c.sessionId) return
  history.replaceState(null, '', location.pathname + '#' + linkParams(c))
  start(c)
})

// Editing the fragment by hand (or following another link to this page) switches to that session.
window.addEventListener('hashchange', () => {
  const c = credentialsFromUrl()
  if (c) start(c)
})

const initial = credentialsFromUrl()
if (initial) start(initial)
`
