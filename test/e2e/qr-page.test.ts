/**
 * The QR page at `/` in real headless Chromium against the real gateway and the sandbox: an operator opens the link
 * of a fresh session, a phone scans the QR shown on the screen (decoded from a screenshot), and the page turns to
 * connected with the account's name and picture. Also: the page follows a rotating QR; a wrong secret, a session that
 * goes away and a stopped gateway are explained (and no stale QR stays up); the form and a query link work; the CSP
 * refuses inline script.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readQrPng } from '../../src/demo/qr-decode.js'
import { findChromium, missingBrowser } from './chromium.js'
import { launchGateway, sandboxCall, startWorld, waitFor, type Gateway } from './harness.js'
import { errorsOf, openBrowser, pageLink, qrOnScreen, shownQrSrc, statusOf, waitForState, type Browser } from './qr-page-helpers.js'

// No browser: fail with how to get one under CI=true, else a loud warning and the tests below are skipped.
const chromium = await findChromium()
if (chromium === undefined) missingBrowser()

describe.skipIf(chromium === undefined)('the QR page in Chromium', () => {
  let world: Awaited<ReturnType<typeof startWorld>>
  let gw: Gateway
  let browser: Browser

  beforeAll(async () => {
    browser = await openBrowser(chromium!)
    console.info(`QR page tests in ${chromium!.source}`)
    world = await startWorld()
    gw = await launchGateway(world.sandbox.url, world.dataDir)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await gw?.proc.stop()
    await world?.cleanup()
  })

  const openPage = async (url: string) => {
    const page = await browser.context.newPage()
    const errors = errorsOf(page)
    const response = await page.goto(url)
    return { page, errors, response }
  }

  const scan = async (qr: string, phone: string) => {
    const r = await sandboxCall(world.sandbox.url, 'POST', '/scan', { qr, phone })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
  }

  it('pairs a fresh session from the QR on the screen and turns to connected with the name and picture', async () => {
    const session = await gw.createSession()
    const { page, errors, response } = await openPage(pageLink(gw.url, session))
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'.*img-src 'self' data: https:\/\/127\.0\.0\.1:\*/)

    await shownQrSrc(page)
    expect(await statusOf(page)).toEqual({ state: 'qr', text: 'Scan this QR code with the phone.' })
    const qr = await qrOnScreen(page)
    expect(qr, 'a QR code readable in the screenshot').toBeDefined()
    await scan(qr!, '15550000001')

    await waitForState(page, 'connected')
    expect(await statusOf(page)).toEqual({ state: 'connected', text: 'Connected as Alice.' })
    expect(await page.locator('#account-name').textContent()).toBe('Alice')
    expect(await page.locator('#account-number').textContent()).toBe('+15550000001')
    expect(await page.locator('#qr').isHidden()).toBe(true)
    expect(await qrOnScreen(page), 'no QR left on the screen').toBeUndefined()
    // The profile picture comes from the platform's (here the sandbox's) media host: the CSP must let it load.
    const picture = page.locator('#account-picture')
    await picture.waitFor({ state: 'visible', timeout: 60_000 })
    expect(await picture.getAttribute('src')).toBe((await gw.session(session)).body.picture)
    expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    expect(errors).toEqual([])
    await page.close()
  }, 300_000)

  it('replaces the QR when it rotates, and the rotated one pairs', async () => {
    const session = await gw.createSession()
    const { page, errors } = await openPage(pageLink(gw.url, session))
    const firstSrc = await shownQrSrc(page)
    const first = await qrOnScreen(page)
    expect(first).toBeDefined()

    // Baileys shows the next of the platform's QR refs after about a minute without a scan.
    await shownQrSrc(page, firstSrc, 180_000)
    const rotated = await qrOnScreen(page)
    expect(rotated).toBeDefined()
    expect(rotated).not.toBe(first)
    const current = await waitFor('the QR in GET /session', async () => (await gw.session(session)).body.qrcode || undefined)
    expect(rotated).toBe(readQrPng(current))

    await scan(rotated!, '15550000002')
    await waitForState(page, 'connected')
    expect(await page.locator('#account-name').textContent()).toBe('Bob')
    expect(errors).toEqual([])
    await page.close()
  }, 420_000)

  it('explains a wrong session-id and shows no QR', async () => {
    const session = await gw.createSession()
    const { page } = await openPage(pageLink(gw.url, { id: session.id, sessionId: 'not-the-secret' }))
    await waitForState(page, 'not-found', 60_000)
    const { text } = await statusOf(page)
    expect(text).toMatch(/^Session not found: the id or session-id is wrong, or the session is gone/)
    expect(await page.locator('#qr').isHidden()).toBe(true)
    await page.close()
  }, 120_000)

  it('takes the ids from the form, and from a query link whose secret it moves into the fragment', async () => {
    const session = await gw.createSession()
    const typed = await openPage(`${gw.url}/`)
    expect(await statusOf(typed.page)).toMatchObject({ state: 'idle' })
    await typed.page.fill('#id', session.id)
    await typed.page.fill('#session-id', session.sessionId)
    await typed.page.click('button[type=submit]')
    await shownQrSrc(typed.page)
    expect(new URL(typed.page.url()).hash).toBe(new URL(pageLink(gw.url, session)).hash)
    await typed.page.close()

    const linked = await openPage(`${gw.url}/?${new URLSearchParams({ id: session.id, 'session-id': session.sessionId })}`)
    await shownQrSrc(linked.page)
    const url = new URL(linked.page.url())
    expect(url.search).toBe('')
    expect(url.hash).toBe(new URL(pageLink(gw.url, session)).hash)
    await linked.page.close()
  }, 300_000)

  it('refuses inline script (strict CSP)', async () => {
    const { page, errors } = await openPage(`${gw.url}/`)
    await page.evaluate(() => {
      const s = document.createElement('script')
      s.textContent = 'document.body.dataset.injected = "yes"'
      document.head.append(s)
    })
    await waitFor('the CSP report in the console', async () => errors.find(e => e.includes('Content Security Policy')))
    expect(await page.evaluate(() => document.body.dataset.injected)).toBeUndefined()
    await page.close()
  }, 120_000)

  it('turns from the QR to "session not found" when the session goes away (deleted, or expired unscanned)', async () => {
    const session = await gw.createSession()
    const { page } = await openPage(pageLink(gw.url, session))
    await shownQrSrc(page)
    // The same 404 the gateway answers once an unscanned QR expires (test/e2e/qr-expiry.test.ts), without the wait.
    expect((await gw.call('DELETE', '/session', session)).status).toBe(200)
    await waitForState(page, 'not-found', 60_000)
    expect((await statusOf(page)).text).toContain('an unscanned QR expires after about 3 minutes')
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
      const { page } = await openPage(pageLink(stopping.url, await stopping.createSession()))
      await shownQrSrc(page)
      await stopping.proc.stop()
      await waitForState(page, 'offline', 60_000)
      expect((await statusOf(page)).text).toBe('Cannot reach the gateway; trying again…')
      expect(await page.locator('#qr').isHidden()).toBe(true)
      await page.close()
    }, 240_000)
  })
})
