/**
 * @module http/qr-page/page-style
 * The stylesheet of the QR page: one column, the QR large and crisp (pixelated scaling keeps its modules sharp for a
 * phone camera), a quiet-zone margin around it, a pending pairing code large enough to read out, and a colour per
 * status so the state reads at a glance.
 */
export const QR_PAGE_STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; color: #1b1f23; background: #f4f5f7; }
body { margin: 0; }
main { max-width: 34rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border-radius: 12px;
  box-shadow: 0 1px 4px rgba(0, 0, 0, 0.12); }
h1 { margin-top: 0; font-size: 1.4rem; }
form { display: grid; grid-template-columns: max-content 1fr; gap: 0.5rem 0.75rem; align-items: center; }
form[hidden] { display: none; }
form button { grid-column: 2; justify-self: start; padding: 0.4rem 1rem; }
input { font: inherit; padding: 0.3rem 0.4rem; min-width: 0; }
#status { margin: 1.25rem 0; padding: 0.6rem 0.8rem; border-radius: 8px; background: #eef1f4; }
#status[data-state="linked"] { background: #e3f6e8; color: #135c2b; }
#status[data-state="not-found"], #status[data-state="invalid"], #status[data-state="secret-link"] {
  background: #fde8e8; color: #8a1c1c; }
#status[data-state="error"], #status[data-state="offline"] {
  background: #fff4db; color: #6b4a00; }
figure { margin: 0; text-align: center; }
#qr-image { width: 264px; height: 264px; padding: 16px; background: #fff; image-rendering: pixelated; }
figcaption { margin-top: 0.5rem; font-size: 0.9rem; color: #4a5560; }
#pairing-code { margin-top: 1.25rem; text-align: center; font-size: 0.9rem; color: #4a5560; }
#pairing-code-value { margin: 0.5rem 0; font: 600 2rem ui-monospace, monospace; letter-spacing: 0.15em;
  color: #1b1f23; }
`
