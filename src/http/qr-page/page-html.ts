/**
 * @module http/qr-page/page-html
 * The markup of the QR page served at `/`. No inline script or style (the CSP forbids both): behaviour lives in
 * page-script.ts, looks in page-style.ts. Every element the script fills is addressed by its id. It shows a QR, a
 * pending pairing code and a status line, nothing of the account: a view link's holder may see the QR, the code (the
 * other way to link the same session) and no more. The id/session-id form starts hidden: the script shows it only
 * to a page opened without a view link.
 */
import { QR_PAGE_SCRIPT_PATH, QR_PAGE_STYLE_PATH } from './paths.js'

export const QR_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Link a session</title>
  <!-- An empty icon: otherwise the browser asks for /favicon.ico, which is an API 404. -->
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${QR_PAGE_STYLE_PATH}">
  <script type="module" src="${QR_PAGE_SCRIPT_PATH}"></script>
</head>
<body>
  <main>
    <h1>Link a session</h1>
    <form id="session-form" autocomplete="off" hidden>
      <label for="id">id</label>
      <input id="id" name="id" required spellcheck="false">
      <label for="session-id">session-id</label>
      <input id="session-id" name="session-id" type="password" required spellcheck="false">
      <button type="submit">Show the QR code</button>
    </form>
    <p id="status" role="status" aria-live="polite" data-state="idle">Open the view link that
      <code>POST /session/view-link</code> returned, or enter the id and session-id that <code>POST /session</code>
      returned (the page trades them for a view link and keeps neither).</p>
    <noscript><p>This page needs JavaScript to ask the gateway for the QR code.</p></noscript>
    <figure id="qr" hidden>
      <img id="qr-image" alt="QR code to scan with the phone" width="264" height="264">
      <figcaption>On the phone: WhatsApp → Settings → Linked devices → Link a device, then point the camera here.
        The code changes every so often; this page always shows the current one.</figcaption>
    </figure>
    <section id="pairing-code" hidden>
      <p>Or link without the camera: on the phone, Linked devices → Link a device → Link with phone number instead,
        and type this code:</p>
      <p id="pairing-code-value"></p>
      <p id="pairing-code-expiry"></p>
    </section>
  </main>
</body>
</html>
`
