/**
 * Real headless Chromium for the QR page tests (test/system/qr-page/qr-page.test.ts): the one `findChromium()` found (npm's,
 * else Debian's; chromium.ts) driven by playwright-core, a fresh profile per launch, and what the tests read off the page (the QR in a screenshot, the
 * console errors a CSP violation or a script failure would print).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { readQrPng } from '../../../src/demo/qr-decode.js'
import type { FoundChromium } from '../chromium.js'
import type { Gateway, Session } from './harness.js'

// Without the background-networking flags Chromium calls home at start, and this machine's closed network refuses it.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface Browser {
  context: BrowserContext
  close(): Promise<void>
}

/** Launches the Chromium `findChromium()` found, with a fresh --user-data-dir. */
export async function openBrowser(found: FoundChromium): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'qr-page-chromium-'))
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: found.executablePath,
      headless: true,
      args: [...FLAGS, ...found.args],
      env: found.env,
      // The sandbox serves profile pictures over HTTPS under its own CA, which this fresh profile does not trust.
      ignoreHTTPSErrors: true,
      viewport: { width: 900, height: 900 },
    })
    return {
      context,
      async close() {
        await context.close()
        rmSync(profile, { recursive: true, force: true })
      },
    }
  } catch (err) {
    rmSync(profile, { recursive: true, force: true })
    throw err
  }
}

/** The old link that carried the secret in its fragment: the page must refuse it. */
export const secretLink = (gatewayUrl: string, s: Session) =>
  `${gatewayUrl}/#${new URLSearchParams({ id: s.id, 'session-id': s.sessionId })}`

/** A view-only link for `s`, as an operator gets it from POST /session/view-link (through the validating client). */
export async function viewLink(gw: Gateway, s: Session): Promise<{ url: string; token: string; expiresAt: string }> {
  const r = await gw.call('POST', '/session/view-link', s)
  if (r.status !== 200) throw new Error(`POST /session/view-link → ${r.status} ${JSON.stringify(r.body)}`)
  const token = new URLSearchParams(new URL(r.body.url).hash.slice(1)).get('view')
  if (!token) throw new Error(`no view token in ${r.body.url}`)
  return { url: r.body.url, token, expiresAt: r.body.expiresAt }
}

/** Every request a page sends, with its headers (to show the secret never leaves it). */
export function requestsOf(page: Page): { url: string; headers: Record<string, string> }[] {
  const seen: { url: string; headers: Record<string, string> }[] = []
  page.on('request', r => {
    seen.push({ url: r.url(), headers: r.headers() })
  })
  return seen
}

/** Console errors and uncaught exceptions of a page (a refused CSP source shows up here). */
export function errorsOf(page: Page): string[] {
  const errors: string[] = []
  page.on('console', m => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('pageerror', e => errors.push(String(e)))
  return errors
}

/** Reads the QR code off a screenshot of the page, as a phone camera pointed at the screen would; undefined if none. */
export async function qrOnScreen(page: Page): Promise<string | undefined> {
  const png = await page.screenshot({ type: 'png' })
  return readQrPng(png.toString('base64'))
}

/** Waits until the page shows a QR image that has finished loading, other than `previousSrc`; returns its src. */
export async function shownQrSrc(page: Page, previousSrc = '', timeout = 120_000): Promise<string> {
  const handle = await page.waitForFunction(
    previous => {
      const img = document.getElementById('qr-image') as HTMLImageElement | null
      const figure = document.getElementById('qr')
      if (!img || !figure || figure.hidden || !img.complete || img.naturalWidth === 0) return undefined
      const src = img.getAttribute('src') ?? ''
      return src !== '' && src !== previous ? src : undefined
    },
    previousSrc,
    { timeout, polling: 250 },
  )
  return (await handle.jsonValue()) as string
}

/** The status line's state and text. */
export async function statusOf(page: Page) {
  const line = page.locator('#status')
  return { state: await line.getAttribute('data-state'), text: (await line.textContent())?.trim() ?? '' }
}

/** Waits until the status line is in `state` (qr, linked, not-found, secret-link, offline...). */
export const waitForState = (page: Page, state: string, timeout = 120_000) =>
  page.waitForFunction(s => document.getElementById('status')?.dataset.state === s, state, { timeout, polling: 250 })
