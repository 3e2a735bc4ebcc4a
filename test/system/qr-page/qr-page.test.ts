/**
 * The QR page at `/` in real headless Chromium against the real gateway and the sandbox: an operator hands out a
 * view-only link (POST /session/view-link), the page shows the QR through its token, a phone scans the QR shown on
 * the screen (decoded from a screenshot), and the page turns to "linked" while the link stops working. The session's
 * secret never reaches the page's URL or its requests. Also: the page follows a rotating QR; the form trades a typed
 * id and secret for a view link; an old link carrying the secret is refused and wiped; a wrong secret, a session that
 * goes away and a stopped gateway are explained (and no stale QR stays up); the CSP refuses inline script; a pending
 * pairing code shows under the QR, and typed on the phone as read off the page, it links. A page opened with a view
 * link shows no id/session-id form, and a linked session's page logs no console error.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readQrPng } from '../../../src/demo/qr-decode.js'
import { findChromium, missingBrowser } from '../../support/chromium.js'
import { launchGateway, sandboxCall, type Gateway } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'
import {
  errorsOf,
  openBrowser,
  qrOnScreen,
  requestsOf,
  secretLink,
  shownQrSrc,
  statusOf,
  viewLink,
  waitForState,
  type Browser,
} from '../../support/system/qr-page.js'
import { waitFor } from '../../support/wait-for.js'

// No browser: fail with how to get one under CI=true, else a loud warning and the tests below are skipped.
const chromium = await findChromium()
if (chromium === undefined) missingBrowser()

describe.skipIf(chromium === undefined)('the QR page in Chromium', () => {
  const world = gatewayWorld()
  let browser: Browser

  beforeAll(async () => {
    browser = await openBrowser(chromium!)
    console.info(`QR page tests in ${chromium!.source}`)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
  })

  const openPage = async (url: string) => {
    const page = await browser.context.newPage()
    const errors = errorsOf(page)
    const requests = requestsOf(page)
    const response = await page.goto(url)
    return { page, errors, requests, response }
  }

  const scan = async (qr: string, phone: string) => {
    const r = await sandboxCall(world.sandbox.url, 'POST', '/scan', { qr, phone })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
  }

  /** Nothing the page sent or shows in its address bar holds the session's secret. */
  const expectNoSecret = (
    requests: { url: string; headers: Record<string, string> }[],
    pageUrl: string,
    secret: string,
  ) => {
    expect(pageUrl).not.toContain(secret)
    for (const r of requests) {
      expect(r.url, r.url).not.toContain(secret)
      expect(Object.values(r.headers).join('\n'), r.url).not.toContain(secret)
      expect(r.headers['session-id'], r.url).toBeUndefined()
    }
  }

  it('shows the QR through a view link, pairs from the screen, then says linked while the link stops working', async () => {
    const session = await world.gw.createSession()
    const link = await viewLink(world.gw, session)
    expect(link.token).not.toBe(session.sessionId)
    expect(link.url).toBe(`${world.gw.url}/#view=${link.token}`)
    const { page, errors, requests, response } = await openPage(link.url)
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'.*img-src 'self' data:;/)

    await shownQrSrc(page)
    expect(await statusOf(page)).toEqual({ state: 'qr', text: 'Scan this QR code with the phone.' })
    expect(await page.locator('#session-form').isHidden()).toBe(true) // a link's holder has no id or session-id
    const qr = await qrOnScreen(page)
    expect(qr, 'a QR code readable in the screenshot').toBeDefined()
    expect(qr).toBe(readQrPng((await world.gw.session(session)).body.qrcode))
    await scan(qr!, '15550000001')

    await waitForState(page, 'linked')
    expect(await statusOf(page)).toEqual({
      state: 'linked',
      text: 'Linked: the phone is now connected. This view link no longer works.',
    })
    expect(await page.locator('#qr').isHidden()).toBe(true)
    expect(await qrOnScreen(page), 'no QR left on the screen').toBeUndefined()
    // the page learns of the pairing the moment it happens (it waits), which is before the platform's restart after
    // pairing has brought the session's connection up again
    await waitFor('the session connected', async () => (await world.gw.session(session)).body.isConnected || undefined)

    // The page polled with the token only; the link is dead now, and a paired session has no QR to link to.
    expect(
      requests
        .filter(r => r.url.startsWith(`${world.gw.url}/session/qr`))
        .every(r => r.headers['view-token'] === link.token),
    ).toBe(true)
    expectNoSecret(requests, page.url(), session.sessionId)
    const after = await world.gw.raw('GET', '/session/qr', { 'view-token': link.token })
    expect(after).toMatchObject({
      status: 410,
      body: { statusCode: 410, message: 'the session is linked; this view link no longer works' },
    })
    expect((await world.gw.call('POST', '/session/view-link', session)).status).toBe(409)
    expect(errors).toEqual([])
    await page.close()
  }, 300_000)

  it('shows a pending pairing code under the QR; typed on the phone as read off the page, it links', async () => {
    const phone = '15550000004'
    const session = await world.gw.createSession()
    const { page, errors } = await openPage((await viewLink(world.gw, session)).url)
    await shownQrSrc(page)
    expect(await page.locator('#pairing-code').isHidden()).toBe(true)
    const asked = await world.gw.call('POST', '/session/pairing-code', session, { phone })
    expect(asked.status).toBe(200)
    await page.waitForFunction(
      code => document.getElementById('pairing-code-value')?.textContent === code,
      asked.body.code,
      { timeout: 30_000, polling: 250 },
    )
    expect(await page.locator('#qr').isVisible()).toBe(true) // the QR still shows, and still links
    expect(await page.locator('body').textContent()).not.toContain(phone.slice(1)) // nothing of the number
    const typed = (await page.locator('#pairing-code-value').textContent()) ?? ''
    const linked = await sandboxCall(world.sandbox.url, 'POST', '/link-code', { phone, code: typed })
    expect(linked.status, JSON.stringify(linked.body)).toBe(200)
    await waitForState(page, 'linked')
    expect(await page.locator('#pairing-code').isHidden()).toBe(true)
    expect(errors).toEqual([])
    await page.close()
  }, 300_000)

  it('replaces the QR the moment it rotates (waiting, not polling), and the rotated one pairs', async () => {
    const session = await world.gw.createSession()
    const { page, errors, requests } = await openPage((await viewLink(world.gw, session)).url)
    const firstSrc = await shownQrSrc(page)
    const first = await qrOnScreen(page)
    expect(first).toBeDefined()
    const asked = requests.length

    // Baileys shows the next of the platform's QR refs after about a minute without a scan.
    await shownQrSrc(page, firstSrc, 180_000)
    const rotated = await qrOnScreen(page)
    expect(rotated).toBeDefined()
    expect(rotated).not.toBe(first)
    // The page waited for the rotation: each request held the ETag of the QR shown and asked the gateway to wait
    // (polling every 2.5 s would have sent about 24 in that minute; waiting 25 s at a time sends a few).
    const waits = requests.slice(asked).filter(r => r.url.startsWith(`${world.gw.url}/session/qr`))
    expect(waits.length).toBeGreaterThan(0)
    expect(waits.length).toBeLessThanOrEqual(8)
    for (const r of waits) {
      expect(r.url).toBe(`${world.gw.url}/session/qr?linkedStatus=200&wait=25`)
      expect(r.headers['if-none-match']).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
    }
    const current = await waitFor(
      'the QR in GET /session',
      async () => (await world.gw.session(session)).body.qrcode || undefined,
      60_000,
    )
    expect(rotated).toBe(readQrPng(current))

    await scan(rotated!, '15550000002')
    await waitForState(page, 'linked')
    expect(errors).toEqual([])
    await page.close()
  }, 420_000)

  it('trades an id and session-id typed into the form for a view link, keeping the secret out of URL and requests', async () => {
    const session = await world.gw.createSession()
    const { page, requests } = await openPage(`${world.gw.url}/`)
    expect(await statusOf(page)).toMatchObject({ state: 'idle' })
    expect(await page.locator('#session-form').isVisible()).toBe(true)
    await page.fill('#id', session.id)
    await page.fill('#session-id', session.sessionId)
    await page.click('button[type=submit]')
    await shownQrSrc(page)
    expect(await page.inputValue('#session-id')).toBe('')
    expect(new URL(page.url()).hash).toMatch(/^#view=[A-Za-z0-9_-]{32}$/)
    // One request carried the secret: the trade itself. Every poll after it carried only the token.
    const withSecret = requests.filter(r => r.headers['session-id'] !== undefined)
    expect(withSecret.map(r => r.url)).toEqual([`${world.gw.url}/session/view-link`])
    expectNoSecret(
      requests.filter(r => !withSecret.includes(r)),
      page.url(),
      session.sessionId,
    )
    expect(requests.some(r => r.url === `${world.gw.url}/session/qr?linkedStatus=200`)).toBe(true)
    expect(await page.locator('#session-form').isHidden()).toBe(true)
    await page.close()
  }, 300_000)

  it('refuses an old link carrying the secret, wipes it from the address bar and never uses it', async () => {
    const session = await world.gw.createSession()
    for (const url of [
      secretLink(world.gw.url, session),
      `${world.gw.url}/?${new URLSearchParams({ id: session.id, 'session-id': session.sessionId })}`,
    ]) {
      const { page, requests } = await openPage(url)
      await waitForState(page, 'secret-link', 60_000)
      expect((await statusOf(page)).text).toMatch(/^This link carried the session-id, which gives the whole API/)
      expect(page.url()).toBe(`${world.gw.url}/`)
      expect(await page.locator('#qr').isHidden()).toBe(true)
      expect(await page.locator('#session-form').isVisible()).toBe(true) // the way the message points to
      // Only the page itself was fetched with the secret in it (the query form: the browser sent it, nothing else did).
      expect(
        requests.filter(r => r.headers['session-id'] !== undefined || r.headers['view-token'] !== undefined),
      ).toEqual([])
      expect(requests.filter(r => r.url.includes('/session'))).toEqual([])
      await page.close()
    }
  }, 120_000)

  it('explains a wrong session-id typed into the form and shows no QR', async () => {
    const session = await world.gw.createSession()
    const { page } = await openPage(`${world.gw.url}/`)
    await page.fill('#id', session.id)
    await page.fill('#session-id', 'not-the-secret')
    await page.click('button[type=submit]')
    await waitForState(page, 'not-found', 60_000)
    expect((await statusOf(page)).text).toMatch(
      /^Session not found: the id or session-id is wrong, or the session is gone/,
    )
    expect(await page.locator('#qr').isHidden()).toBe(true)
    await page.close()
  }, 120_000)

  it('refuses inline script (strict CSP)', async () => {
    const { page, errors } = await openPage(`${world.gw.url}/`)
    await page.evaluate(() => {
      const s = document.createElement('script')
      s.textContent = 'document.body.dataset.injected = "yes"'
      document.head.append(s)
    })
    await waitFor(
      'the CSP report in the console',
      async () => errors.find(e => e.includes('Content Security Policy')),
      60_000,
    )
    expect(await page.evaluate(() => document.body.dataset.injected)).toBeUndefined()
    await page.close()
  }, 120_000)

  it('turns from the QR to "expired or withdrawn" when the session goes away (deleted, or expired unscanned)', async () => {
    const session = await world.gw.createSession()
    const { page } = await openPage((await viewLink(world.gw, session)).url)
    await shownQrSrc(page)
    // The same 404 the link answers once an unscanned QR expires (test/system/qr-page/view-link.test.ts), without the wait.
    expect((await world.gw.call('DELETE', '/session', session)).status).toBe(200)
    await waitForState(page, 'not-found', 60_000)
    expect((await statusOf(page)).text).toMatch(/^This view link has expired or was withdrawn/)
    expect(await page.locator('#qr').isHidden()).toBe(true)
    await page.close()
  }, 240_000)

  describe('on a gateway that stops', () => {
    let stopping: Gateway
    let dataDir: string

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'qr-page-gateway-'))
      stopping = await launchGateway(world.sandbox.url, dataDir)
    }, 120_000)

    afterAll(async () => {
      await stopping?.proc.stop()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    it('says the gateway cannot be reached, instead of leaving a stale QR', async () => {
      const { page } = await openPage((await viewLink(stopping, await stopping.createSession())).url)
      await shownQrSrc(page)
      await stopping.proc.stop()
      await waitForState(page, 'offline', 60_000)
      expect((await statusOf(page)).text).toBe('Cannot reach the gateway; trying again…')
      expect(await page.locator('#qr').isHidden()).toBe(true)
      await page.close()
    }, 240_000)
  })
})
